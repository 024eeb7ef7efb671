/** Accounts: users, sign-in and tokens, captcha, login throttling, the first admin. */
export {
  changePassword,
  getPushUrl,
  pushUrlsOf,
  type LoginResult,
  MAX_USER_SEARCH_LENGTH,
  USER_SEARCH_MIN_PREFIX,
  type UserSummary,
  loginWithPassword,
  type PublicUser,
  registerWithPassword,
  savePushUrl,
  searchUsers,
  updateDisplayName,
} from './accounts';
export {
  type AdminUserRow,
  eraseUserRows,
  listUsers,
  requireDeletableUser,
  saveUser,
  userErased,
} from './adminUsers';
export { ANONYMOUS, type Authenticated, authenticateToken } from './auth';
export { ensureFirstAdmin, FIRST_ADMIN_USERNAME } from './bootstrap';
export { saveLdapConfig } from './ldap';
export { syncLdapUsers } from './ldapSync';
export { finishOauth2, loginBySecretKey, redeemLoginCode, startOauth2 } from './extLogin';
export { captchaImage, checkCaptcha, createCaptcha } from './captcha';
export {
  actorRowsOf,
  createUser,
  issueToken,
  issueTokenFor,
  revokeTokens,
  setPassword,
  usernameClashes,
  verifyPassword,
  type ActorRow,
} from './users';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { ADMIN_GROUP, User, UserToken } from './schemas';
export type { UserDoc } from './schemas';
