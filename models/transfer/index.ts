/**
 * Data in and out: the open API (key-authenticated scripts), code-comment sync, exports and
 * imports. The public face of the transfer domain.
 */
export * from './openApi';
export { pagesFromComments, parseCommentBlock, commentBlocks } from './fromComments';
export { runapiToMarkdown } from './runapiMarkdown';
export { exportTree, treePages, type ExportTree } from './exportTree';
export { exportMarkdown, safeFileName } from './exportMarkdown';
export { exportWord } from './exportWord';
export { DAILY_LIMIT as HTML_EXPORT_DAILY_LIMIT, exportHtml } from './exportHtml';
export {
  checkImportTarget,
  importFile,
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
