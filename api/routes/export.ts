/**
 * `export/*` (ShowDoc's ExportController): Word and Markdown downloads of an item, and Quire's
 * PDF and OpenAPI ones. The rules
 * (who may export what, the file layouts) live in models/transfer/; this file reads parameters
 * and sends the file. Errors still answer in the envelope.
 */
import { exportMarkdown, exportOpenApi, exportPdf, exportWord } from '../../models/transfer';
import { requireLogin } from '../auth';
import type { ActionContext } from '../registry';
import { defineController } from '../registry';

function download(ctx: ActionContext, fileName: string, type: string, body: Uint8Array): void {
  ctx.res
    .status(200)
    .set({
      'Content-Type': type,
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    })
    .send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

export const exportController = defineController('export', {
  async checkMarkdownLimit(ctx) {
    // ShowDoc's open-source edition has no export quota; the call only requires a login.
    await requireLogin(ctx);
    return [];
  },

  async word(ctx) {
    const { actor } = await requireLogin(ctx);
    const file = await exportWord(actor, {
      itemId: ctx.params.int('item_id'),
      catId: ctx.params.int('cat_id'),
      pageId: ctx.params.int('page_id'),
    });
    download(
      ctx,
      file.fileName,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      file.docx,
    );
  },

  /** Quire's addition: the item, a catalog or a page printed to PDF (parameters as `word`). */
  async pdf(ctx) {
    const { actor } = await requireLogin(ctx);
    const file = await exportPdf(
      actor,
      {
        itemId: ctx.params.int('item_id'),
        catId: ctx.params.int('cat_id'),
        pageId: ctx.params.int('page_id'),
      },
      { chromiumPath: ctx.config.pdfChromiumPath },
    );
    download(ctx, file.fileName, 'application/pdf', file.pdf);
  },

  /** Quire's addition: an OpenAPI 3 document from the item's API pages. */
  async openapi(ctx) {
    const { actor } = await requireLogin(ctx);
    const doc = await exportOpenApi(actor, {
      itemId: ctx.params.int('item_id'),
      catId: ctx.params.int('cat_id'),
    });
    download(ctx, 'openapi.json', 'application/json', Buffer.from(JSON.stringify(doc, null, 2)));
  },

  async markdown(ctx) {
    const { actor } = await requireLogin(ctx);
    const file = await exportMarkdown(actor, ctx.params.int('item_id'), ctx.params.int('cat_id'));
    download(ctx, file.fileName, 'application/zip', file.zip);
  },
});
