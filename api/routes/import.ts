/**
 * `import/auto` (ShowDoc's ImportController): a multipart upload (`file`, `item_id`, and Quire's
 * optional `import_id` for progress pushes) imported by models/transfer/importer.ts. When the
 * login and the target item are known before the file arrives they are checked first, so a
 * refused import does not even store the upload.
 */
import { rm } from 'node:fs/promises';
import { authenticateToken } from '../../models/accounts';
import { errors, fileStorage } from '../../models/platform';
import { checkImportTarget, importFile } from '../../models/transfer';
import { requireLogin } from '../auth';
import type { Params } from '../params';
import { defineController, type ActionContext } from '../registry';
import { paramsWithForm, receiveMultipart, tokenOf, uploadLimitBytes } from '../uploads';

/** Imports are larger than attachments: ShowDoc exports of big items run to tens of MB. */
const MIN_IMPORT_BYTES = 100 * 1024 * 1024;

async function importer(ctx: ActionContext, params: Params) {
  const auth = await authenticateToken(tokenOf(ctx, params));
  if (!auth) throw errors.notLoggedIn();
  return auth.actor;
}

export const importController = defineController('import', {
  async auto(ctx) {
    if (!ctx.req.is('multipart/form-data')) {
      await requireLogin(ctx);
      throw errors.failed('Please upload the file as multipart/form-data');
    }
    const form = await receiveMultipart(ctx, {
      fileFields: ['file'],
      maxBytes: Math.max(await uploadLimitBytes(), MIN_IMPORT_BYTES),
      stagingDir: await fileStorage().stagingDir(),
      beforeFile: async (fields) => {
        const params = paramsWithForm(ctx, fields);
        if (!tokenOf(ctx, params)) return;
        const actor = await importer(ctx, params);
        await checkImportTarget(actor, params.int('item_id'));
      },
    });
    try {
      const params = paramsWithForm(ctx, form.fields);
      const actor = await importer(ctx, params);
      if (!form.file) throw errors.failed('Please upload a file');
      return await importFile(actor, {
        itemId: params.int('item_id'),
        fileName: form.file.filename,
        path: form.file.path,
        size: form.file.size,
        importId: params.str('import_id').slice(0, 64),
        runApi: params.str('from') === 'runapi',
      });
    } finally {
      if (form.file) await rm(form.file.path, { force: true });
    }
  },
});
