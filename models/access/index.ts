/**
 * The one permission module. Every path that reaches an item or a page — REST, Socket.IO room
 * joins, collaborative documents, search, exports, share links — asks here, so the answer is the
 * same everywhere: named actions (actions.ts) answered by the policy (policy.ts) from the read
 * model (cache.ts); pages' own rules (catalog restriction per page, draft pages, the save's
 * authorization) in pageRules.ts.
 */
export * from './policy';
export { catalogParents, findLiveItem, MAX_CACHED_ITEMS, MAX_CACHED_MEMBERSHIPS } from './cache';
export { ACTIONS, type ItemAction } from './actions';
export {
  type CatalogSource,
  catalogSource,
  type LiveItemSource,
  liveItemSource,
  MEMBER_ADMIN,
  type MemberGrant,
  memberItemRows,
  type MembershipSource,
  membershipSource,
} from './sources';
export {
  authorizePageSave,
  draftFlagAfterSave,
  draftFlagToWrite,
  draftHiddenFrom,
  PAGE_MISSING,
  type PageFacts,
  pageMissing,
  type PageSaveTarget,
  pageVisible,
  pageVisibleToMany,
  publishable,
  requireTargetCatalog,
  validDraftFlag,
} from './pageRules';

export { hashItemPassword, verifyItemPassword } from './itemPasswords';
