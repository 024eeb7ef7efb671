/**
 * `exportHtml/*` (ShowDoc's ExportHtmlController): the offline HTML package of an item, built in
 * models/transfer/. Refusals answer in the envelope; the package is sent as a zip download.
 */
import { exportHtml } from '../../models/transfer';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const exportHtmlController = defineController('exportHtml', {
  async export(ctx) {
    const { actor } = await requireLogin(ctx);
    const file = await exportHtml(actor, ctx.params.int('item_id'));
    ctx.res
      .status(200)
      .attachment(file.fileName)
      .set({ 'Content-Type': 'application/zip', 'Cache-Control': 'no-store' })
      .send(Buffer.from(file.zip.buffer, file.zip.byteOffset, file.zip.byteLength));
  },
});
