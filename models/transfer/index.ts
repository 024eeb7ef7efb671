/**
 * Data in and out: the open API (key-authenticated scripts), code-comment sync, exports and
 * imports. The public face of the transfer domain.
 */
import type { exportHtml as HtmlExport } from './exportHtml';
import type { exportPdf as PdfExport } from './exportPdf';
import type { exportWord as WordExport } from './exportWord';

export * from './openApi';
export { pagesFromComments, parseCommentBlock, commentBlocks } from './fromComments';
export { runapiToMarkdown } from './runapiMarkdown';
export { exportTree, treePages, type ExportTree } from './exportTree';
export { exportMarkdown, safeFileName } from './exportMarkdown';

/** Word export; its module (docx, image-size) loads on the first export, not at start. */
export async function exportWord(
  ...args: Parameters<typeof WordExport>
): ReturnType<typeof WordExport> {
  return (await import('./exportWord')).exportWord(...args);
}
/**
 * Offline HTML export; its module (markdown-it, sanitize-html, fflate) loads on the first export,
 * not at start.
 */
export async function exportHtml(
  ...args: Parameters<typeof HtmlExport>
): ReturnType<typeof HtmlExport> {
  return (await import('./exportHtml')).exportHtml(...args);
}
/**
 * PDF export; its module (markdown-it, highlight.js, playwright-core) loads on the first export,
 * not at start.
 */
export async function exportPdf(
  ...args: Parameters<typeof PdfExport>
): ReturnType<typeof PdfExport> {
  return (await import('./exportPdf')).exportPdf(...args);
}
export { isOpenApi, planFromOpenApi } from './importApiSpecs';
export type { PlannedPage } from './importPlan';
export {
  checkImportTarget,
  importFile,
  parseSpecText,
  planImport,
  type ImportInput,
  type ImportResult,
} from './importer';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zipArchive';
export { exportOpenApi } from './exportOpenApi';
export {
  migrateShowdoc,
  MigrationRefused,
  type ShowdocMigrationOptions,
  type ShowdocMigrationReport,
} from './showdocMigration';
