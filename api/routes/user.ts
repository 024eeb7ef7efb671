/**
 * ShowDoc's `user` controller (reference accounts §8.1–§8.9): login, registration, the caller's
 * profile and password, logout, user search and the push address. The token-login bridge of the
 * web client (`/user/loginByUserToken`) is a browser route: it calls `user/info` with the token,
 * which any transport (X-API-Token, Bearer, `user_token`) may carry.
 */
import { defineController, type ActionContext } from '../registry';
import { optionalLogin, requireLogin } from '../auth';
import {
  changePassword,
  getPushUrl,
  loginWithPassword,
  registerWithPassword,
  savePushUrl,
  searchUsers,
  updateDisplayName,
  type LoginResult,
  type PublicUser,
  revokeTokens,
} from '../../models/accounts';
import { getSiteSettings } from '../../models/settings';

/** The login/registration answer (§7): row fields as strings, as ShowDoc emits them. */
function loginData({ user, token }: LoginResult) {
  return {
    uid: String(user.uid),
    username: user.username,
    name: user.name ?? '',
    groupid: String(user.groupid),
    avatar: user.avatar ?? '',
    avatar_small: user.avatar_small ?? '',
    email: user.email ?? '',
    email_verify: 0,
    user_token: token,
  };
}

function infoData(user: PublicUser) {
  return {
    uid: String(user.uid),
    username: user.username,
    email: user.email ?? '',
    email_verify: 0,
    mobile: user.mobile ?? '',
    name: user.name ?? '',
    avatar: user.avatar ?? '',
    avatar_small: user.avatar_small ?? '',
    groupid: String(user.groupid),
    reg_time: String(user.reg_time ?? 0),
    is_wechat: 0,
    is_sso: String(user.is_sso ?? 0),
  };
}

async function login(ctx: ActionContext) {
  const result = await loginWithPassword({
    username: ctx.params.str('username'),
    password: ctx.params.str('password'),
    captchaId: ctx.params.int('captcha_id'),
    captcha: ctx.params.str('captcha'),
    ip: ctx.ip,
  });
  return loginData(result);
}

async function register(ctx: ActionContext) {
  const result = await registerWithPassword({
    username: ctx.params.str('username'),
    password: ctx.params.str('password'),
    confirmPassword: ctx.params.str('confirm_password'),
    captchaId: ctx.params.int('captcha_id'),
    captcha: ctx.params.str('captcha'),
    ip: ctx.ip,
  });
  return loginData(result);
}

export const userController = defineController('user', {
  login,
  loginByVerify: login,
  register,
  registerByVerify: register,

  async info(ctx) {
    const { user } = await requireLogin(ctx);
    return infoData(user);
  },

  async updateInfo(ctx) {
    const { actor } = await requireLogin(ctx);
    await updateDisplayName(actor.uid, ctx.params.str('name'));
  },

  async resetPassword(ctx) {
    const { actor } = await requireLogin(ctx);
    await changePassword(actor.uid, {
      currentPassword: ctx.params.str('password'),
      newPassword: ctx.params.str('new_password'),
    });
  },

  /** Logs the caller out on every device; succeeds even without a valid token (§2.4). */
  async logout(ctx) {
    const { actor } = await optionalLogin(ctx);
    if (actor.uid > 0) await revokeTokens(actor.uid);
  },

  /** Username search for the member pickers: ShowDoc's three fields, nothing more. */
  async allUser(ctx) {
    const { actor } = await requireLogin(ctx);
    const users = await searchUsers(actor.uid, ctx.params.str('username'));
    return users.map((u) => ({ username: u.username, uid: String(u.uid), name: u.name }));
  },

  async oauthInfo() {
    const { oauth2Open, oauth2Form } = await getSiteSettings();
    const tips = oauth2Form?.entrance_tips;
    return {
      oauth2_open: oauth2Open,
      oauth2_entrance_tips: typeof tips === 'string' ? tips : '',
    };
  },

  async getPushUrl(ctx) {
    const { actor } = await requireLogin(ctx);
    return { push_url: await getPushUrl(actor.uid) };
  },

  async savePushUrl(ctx) {
    const { actor } = await requireLogin(ctx);
    await savePushUrl(actor.uid, ctx.params.str('push_url'));
  },
});
