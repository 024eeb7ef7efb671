/**
 * `attachment/*` (reference accounts §9.19): the attachment manager (my files and usage, the
 * admins' list), deleting and binding files, and serving a file by its `sign` (`visitFile`, also
 * reachable as `common/visitFile`). ShowDoc's older names of the page upload actions are answered
 * by the same handlers as `page/*` (pageUpload.ts).
 *
 * A served file is inert whatever it holds: raster images inline with their real type, everything
 * else as a download; always `X-Content-Type-Options: nosniff` and a sandboxing CSP, never HTML or
 * SVG. Rules are in models/files/attachments.ts and models/files/fileVisits.ts.
 */
import { pipeline } from 'node:stream/promises';
import { type Actor } from '../../models/access';
import { ANONYMOUS, authenticateToken } from '../../models/accounts';
import {
  bindFileToPage,
  deleteAnyFile,
  deleteFiles,
  deleteMyFile,
  type FileVisit,
  listAllFiles,
  type ListFilter,
  listMyFiles,
  listUnusedFiles,
  monthlyTraffic,
  openFileForVisit,
  type UploadFileDoc,
} from '../../models/files';
import { formatUnix } from '../../models/platform';
import { itemPassword, requireAdmin, requireLogin } from '../auth';
import { attachmentContract, type Input } from '../contracts';
import { defineController, type ActionContext, type ActionHandler } from '../registry';
import { publicBaseUrl } from '../uploads';
import {
  deletePageUploadFile,
  fileUrl,
  pageUploadList,
  uploadAttachment,
  uploadImage,
} from './pageUpload';

const MB = 1024 * 1024;

/** Bytes → megabytes with 3 decimals, as a number (ShowDoc's `*_m` fields). */
function megabytes(bytes: number): number {
  return Math.round((bytes / MB) * 1000) / 1000;
}

function listFilter(input: Input<'attachment', 'getMyList'>): ListFilter {
  return {
    attachmentType: input.attachment_type,
    displayName: input.display_name,
    page: input.page,
    count: input.count,
  };
}

function listRow(file: UploadFileDoc, base: string) {
  return {
    file_id: file.file_id,
    uid: file.uid,
    file_type: file.file_type,
    visit_times: file.visit_times,
    file_size: file.file_size,
    item_id: file.item_id,
    page_id: file.page_id,
    file_size_m: megabytes(file.file_size),
    display_name: file.display_name,
    url: fileUrl(base, file.sign),
    addtime: formatUnix(file.addtime),
    last_visit_time: formatUnix(file.last_visit_time),
  };
}

// ---------------------------------------------------------------------------------------------
// Serving

/** The `cookie_token` cookie ShowDoc's client sets: lets `<img>` tags of private pages load. */
function cookieToken(ctx: ActionContext): string {
  const header = ctx.req.get('cookie') ?? '';
  const match = /(?:^|;\s*)cookie_token=([^;]*)/.exec(header);
  if (!match) return '';
  try {
    return decodeURIComponent(match[1]).trim();
  } catch {
    return '';
  }
}

/** The reader: a valid token (header, parameter, then cookie), else an anonymous visitor. */
async function visitorOf(ctx: ActionContext): Promise<Actor> {
  for (const token of [ctx.token(), cookieToken(ctx)]) {
    if (!token) continue;
    const auth = await authenticateToken(token);
    if (auth) return auth.actor;
  }
  return ANONYMOUS;
}

/** RFC 6266 header: an ASCII fallback name plus the exact UTF-8 name. */
function contentDisposition(name: string, inline: boolean): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'file';
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

async function sendFile(ctx: ActionContext, visit: FileVisit): Promise<void> {
  ctx.res.status(200).set({
    'Content-Type': visit.contentType,
    'Content-Length': String(visit.stored.size),
    'Content-Disposition': contentDisposition(visit.file.display_name || 'file', visit.inline),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-cache',
  });
  try {
    await pipeline(visit.stored.stream, ctx.res);
  } catch {
    // The client went away mid-download; nothing to answer.
  }
}

/** attachment/visitFile (= common/visitFile): the file behind `sign`, for readers allowed to see it. */
export const visitFile: ActionHandler = async (ctx) => {
  const actor = await visitorOf(ctx);
  const visit = await openFileForVisit(actor, ctx.params.str('sign').trim(), {
    itemPassword: itemPassword(ctx),
  });
  await sendFile(ctx, visit);
};

// ---------------------------------------------------------------------------------------------

const declared = defineController('attachment', attachmentContract, {
  async getMyList(ctx) {
    const { actor } = await requireLogin(ctx);
    const [result, flow] = await Promise.all([
      listMyFiles(actor, listFilter(ctx.input)),
      monthlyTraffic(actor.uid),
    ]);
    const base = await publicBaseUrl(ctx);
    return {
      list: result.rows.map((file) => listRow(file, base)),
      total: result.total,
      used: result.used,
      used_m: megabytes(result.used),
      used_flow_m: megabytes(flow),
    };
  },

  async deleteMyAttachment(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteMyFile(actor, ctx.input.file_id);
    return [];
  },

  async getAllList(ctx) {
    const { actor } = await requireAdmin(ctx);
    const result = await listAllFiles(actor, {
      ...listFilter(ctx.input),
      username: ctx.input.username,
    });
    const base = await publicBaseUrl(ctx);
    return {
      list: result.rows.map((file) => ({
        ...listRow(file, base),
        username: result.usernames.get(file.uid) ?? '',
      })),
      total: result.total,
      used: result.used,
      used_m: megabytes(result.used),
    };
  },

  /** The file hub's clean-up list (site admins): files no live page uses (models/attachmentCleanup.ts). */
  async getUnusedList(ctx) {
    const { actor } = await requireAdmin(ctx);
    const result = await listUnusedFiles(actor, {
      page: ctx.input.page,
      count: ctx.input.count,
      displayName: ctx.input.display_name,
      username: ctx.input.username,
    });
    return {
      list: result.rows.map((file) => ({
        file_id: file.file_id,
        display_name: file.display_name,
        file_size: file.file_size,
        file_size_m: megabytes(file.file_size),
        addtime: formatUnix(file.addtime),
        username: result.usernames.get(file.uid) ?? '',
        uid: file.uid,
      })),
      total: result.total,
    };
  },

  async batchDeleteAttachments(ctx) {
    const { actor } = await requireAdmin(ctx);
    return deleteFiles(actor, ctx.input.file_ids.map(Number));
  },

  async deleteAttachment(ctx) {
    const { actor } = await requireAdmin(ctx);
    await deleteAnyFile(actor, ctx.input.file_id);
    return [];
  },

  async bindingPage(ctx) {
    const { actor } = await requireLogin(ctx);
    await bindFileToPage(actor, ctx.input.file_id, ctx.input.page_id);
    return [];
  },
});

/** The declared actions, and those that read the multipart form or a file `sign` themselves. */
export const attachmentController = {
  name: 'attachment',
  actions: {
    ...declared.actions,
    visitFile,
    // ShowDoc's older names of the page upload actions.
    uploadImg: uploadImage,
    attachmentUpload: uploadAttachment,
    pageAttachmentUploadList: pageUploadList,
    deletePageUploadFile,
  },
};
