/** Pages: content, history, locks, drafts, access, the recycle bin, share links and SQL-table pages. */
export {
  contentHash,
  deleteDrafts,
  flagPagesWithDrafts,
  loadDraft,
  markDraftSaved,
  storeDraft,
} from './drafts';
export { pageLockState, releaseLocksOf, setPageLock } from './locks';
export { type LiveLock, liveLockOf, livePageContent, type LivePageContent } from './liveReads';
export {
  findLivePage,
  findLivePages,
  type PageWithAccess,
  pageVisible,
  pageVisibleToMany,
  requirePage,
} from './pageAccess';
export { escapeForClient, phpUrlDecode, unescapeFromClient } from './pageContent';
export { listVersions, pageAndVersion, updateVersionRemark } from './pageHistory';
export { packVersionText, versionText, withVersionText } from './versionText';
export {
  connectLiveDocuments,
  connectPageNotifier,
  countAttachments,
  deletePage,
  type LivePageDocuments,
  MAX_TITLE_LENGTH,
  type PageNotifier,
  readPage,
  resolvePageId,
  type SaveOrigin,
  type SaveAgent,
  savePage,
  setAttachmentCounter,
  sortPages,
} from './pages';
export {
  listRecycleBin,
  moveToRecycleBin,
  purgeRecycleBin,
  recoverPage,
  startRecyclePurge,
} from './recycle';
export { activeShareKey, pageByShareKey, toggleShareLink } from './shareLinks';
export { sqlToMarkdownTable } from './sqlTable';
export {
  parseWhiteboard,
  searchableText,
  whiteboardTexts,
  type WhiteboardContent,
  type WhiteboardObject,
} from './whiteboardContent';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { Page, PageHistory, Recycle, SinglePage } from './schemas';
export type { PageDoc, PageHistoryDoc } from './schemas';
