/**
 * The attachment actions of the `page` controller (reference pages §3.13): `upload`, `uploadImg`,
 * `uploadList`, `deleteUploadFile` (page.ts holds the others; the registry merges them). The
 * `attachment` controller answers the same handlers under ShowDoc's older names.
 *
 * Answer shapes kept for ShowDoc clients: `upload` succeeds with `{url, success: 1}` and no
 * `error_code`; `uploadImg` never uses the envelope (`{url, success: 1}` / `{message, success: 0}`)
 * except for the 10102 of a missing login.
 */
import { rm } from 'node:fs/promises';
import { authenticateToken } from '../../models/accounts';
import {
  acceptFileName,
  authorizeUpload,
  pageAttachments,
  removeFileFromPage,
  storeUpload,
  type UploadFileDoc,
  type UploadPurpose,
} from '../../models/files';
import { errors, fileStorage, formatUnix, isApiError } from '../../models/platform';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import type { Params } from '../params';
import type { Input } from '../contracts';
import { defineController, type ActionContext, type ActionHandler } from '../registry';
import {
  paramsWithForm,
  publicBaseUrl,
  receiveMultipart,
  tokenOf,
  uploadLimitBytes,
} from '../uploads';

/** Where a ShowDoc client sends the file: `file` for attachments, editor.md's name for pictures. */
const FILE_FIELDS: Record<UploadPurpose, string[]> = {
  file: ['file'],
  image: ['editormd-image-file', 'file'],
};

/** `<base>/server/?s=/api/attachment/visitFile&sign=<sign>`, the URL form ShowDoc clients use. */
export function fileUrl(base: string, sign: string): string {
  return `${base}/server/?s=/api/attachment/visitFile&sign=${sign}`;
}

function targetOf(params: Params) {
  return { itemId: params.int('item_id'), pageId: params.int('page_id') };
}

async function uploaderOf(ctx: ActionContext, params: Params) {
  const auth = await authenticateToken(tokenOf(ctx, params));
  if (!auth) throw errors.notLoggedIn();
  return auth.actor;
}

/**
 * Receives and stores one upload. When the login and the target are known before the file
 * arrives they are checked first, so a refused upload writes nothing at all; otherwise the staged
 * bytes are deleted on refusal.
 */
async function receiveAndStore(ctx: ActionContext, purpose: UploadPurpose): Promise<UploadFileDoc> {
  if (!ctx.req.is('multipart/form-data')) {
    // A form or JSON body was parsed already: answer a missing login before the wrong format.
    await requireLogin(ctx);
    throw errors.failed('Please send the file as multipart/form-data');
  }
  const form = await receiveMultipart(ctx, {
    fileFields: FILE_FIELDS[purpose],
    maxBytes: await uploadLimitBytes(),
    stagingDir: await fileStorage().stagingDir(),
    beforeFile: async (fields, filename) => {
      const params = paramsWithForm(ctx, fields);
      if (!tokenOf(ctx, params)) return; // the token may still follow the file
      const actor = await uploaderOf(ctx, params);
      acceptFileName(filename, purpose);
      await authorizeUpload(actor, targetOf(params));
    },
  });
  try {
    const params = paramsWithForm(ctx, form.fields);
    const actor = await uploaderOf(ctx, params);
    if (!form.file) throw errors.failed('Please choose a file to upload');
    return await storeUpload(actor, {
      target: targetOf(params),
      purpose,
      clientName: form.file.filename,
      staged: form.file,
    });
  } finally {
    if (form.file) await rm(form.file.path, { force: true });
  }
}

/** page/upload (= attachment/attachmentUpload). */
export const uploadAttachment: ActionHandler = async (ctx) => {
  const file = await receiveAndStore(ctx, 'file');
  ctx.res.json({ url: fileUrl(await publicBaseUrl(ctx), file.sign), success: 1 });
};

/** page/uploadImg (= attachment/uploadImg): editor.md's answer shape. */
export const uploadImage: ActionHandler = async (ctx) => {
  let file: UploadFileDoc;
  try {
    file = await receiveAndStore(ctx, 'image');
  } catch (error) {
    if (!isApiError(error) || error.code === 10102) throw error;
    ctx.res.json({ message: error.message, success: 0 });
    return;
  }
  ctx.res.json({ url: fileUrl(await publicBaseUrl(ctx), file.sign), success: 1 });
};

/** page/uploadList (= attachment/pageAttachmentUploadList): a page's files, for its readers. */
export const pageUploadList: ActionHandler = async (ctx) => {
  const { actor } = await optionalLogin(ctx);
  // Both controllers that offer it declare the same input (page and attachment contracts).
  const { page_id: pageId } = ctx.input as Input<'page', 'uploadList'>;
  const rows = await pageAttachments(actor, pageId, {
    itemPassword: itemPassword(ctx),
  });
  const base = await publicBaseUrl(ctx);
  return rows.map(({ file }) => ({
    file_id: file.file_id,
    display_name: file.display_name,
    url: fileUrl(base, file.sign),
    addtime: formatUnix(file.addtime),
    file_type: file.file_type,
  }));
};

/** page/deleteUploadFile (= attachment/deletePageUploadFile). */
export const deletePageUploadFile: ActionHandler = async (ctx) => {
  const { actor } = await requireLogin(ctx);
  const input = ctx.input as Input<'page', 'deleteUploadFile'>;
  await removeFileFromPage(actor, input.file_id, input.page_id);
  return [];
};

export const pageUploadController = defineController('page', {
  upload: uploadAttachment,
  uploadImg: uploadImage,
  uploadList: pageUploadList,
  deleteUploadFile: deletePageUploadFile,
});
