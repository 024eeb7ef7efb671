/** Files: uploads, page attachments, file types and file visits. */
export {
  bindFileToPage,
  deleteAnyFile,
  deleteItemFile,
  deleteMyFile,
  listAllFiles,
  type ListFilter,
  listMyFiles,
  monthlyTraffic,
  pageAttachments,
  removeFileFromPage,
  startAttachments,
} from './attachments';
export { deleteFiles, listUnusedFiles } from './attachmentCleanup';
export {
  extractText,
  type FileText,
  itemFilesWithText,
  queueTextExtraction,
} from './attachmentText';
export { itemAttachments, MAX_ITEM_ATTACHMENTS } from './itemAttachments';
export {
  announcePurgedFiles,
  purgeItemFiles,
  type PurgedFiles,
  removePurgedBytes,
} from './itemPurge';
export { type ExportedFile, type FileVisit, filesForExport, openFileForVisit } from './fileVisits';
export { detectKind, KIND_MIME, SNIFF_BYTES } from './fileTypes';
export { acceptFileName, authorizeUpload, storeUpload, type UploadPurpose } from './uploads';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { FilePage, UploadFile } from './schemas';
export type { UploadFileDoc } from './schemas';
