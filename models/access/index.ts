/**
 * The one permission module. Every path that reaches an item or a page — REST, Socket.IO room
 * joins, collaborative documents, search, exports, share links — asks here, so the answer is the
 * same everywhere: named actions (actions.ts) answered by the policy (policy.ts) from the read
 * model (cache.ts).
 */
export * from './policy';
export { catalogParents, findLiveItem, MAX_CACHED_ITEMS, MAX_CACHED_MEMBERSHIPS } from './cache';
export { ACTIONS, type ItemAction } from './actions';

export { hashItemPassword, verifyItemPassword } from './itemPasswords';
