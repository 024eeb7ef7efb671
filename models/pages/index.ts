/**
 * Pages: saving (savePage.ts, the pipeline), reading, ordering, content, history, locks, live
 * drafts, the recycle bin, share links and SQL-table pages.
 */
import { itemPages } from '../items';
import { pagesForItems } from './firstPage';

// A new single-page item's page is written here, asked through items' port (models/items/ports.ts).
itemPages.fill(pagesForItems);

export {
  contentHash,
  deleteDrafts,
  flagPagesWithDrafts,
  loadDraft,
  markDraftSaved,
  storeDraft,
} from './liveDrafts';
export { pageLockState, releaseLocksOf, setPageLock } from './locks';
export { type LiveLock, liveLockOf, livePageContent, type LivePageContent } from './liveReads';
export { findLivePage, findLivePages, type PageWithAccess, requirePage } from './pageAccess';
// The page rules are access's (models/access/pageRules.ts); offered here too for pages' callers.
export { draftHiddenFrom, pageMissing, pageVisible, pageVisibleToMany } from '../access';
export { escapeForClient, phpUrlDecode, unescapeFromClient } from './pageContent';
export { listVersions, pageAndVersion, updateVersionRemark } from './pageHistory';
export { packVersionText, versionText, withVersionText } from './versionText';
export { deletePage } from './recycle';
export { pageIdsOfItem, purgeItemPages } from './itemPurge';
export { MAX_SORT_ENTRIES, sortPages } from './pageOrder';
export { type PageDetails, readPage, resolvePageId } from './pageReads';
export {
  connectPageNotifier,
  countAttachments,
  type LiveDocPort,
  type LiveDocSave,
  type PageCatalogs,
  pageCatalogs,
  type PageNotifier,
  registerLiveDocs,
  type SaveAgent,
  setAttachmentCounter,
} from './ports';
export { type SavePageResult, savePage, savePageStaged, type StagedSave } from './savePage';
export {
  CUSTOM_ID_RULE,
  MAX_TITLE_LENGTH,
  type SaveOptions,
  type SaveOrigin,
  type SavePageInput,
} from './saveInput';
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
