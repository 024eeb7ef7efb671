/**
 * ShowDoc's `user` controller (reference accounts §8.1–§8.9): login, registration, the caller's
 * profile and password, logout, user search and the push address. The token-login bridge of the
 * web client (`/user/loginByUserToken`) is a browser route: it calls `user/info` with the token,
 * which any transport (X-API-Token, Bearer, `user_token`) may carry.
 */
import { userContract, type Input } from '../contracts';
import { defineController, type ActionContext } from '../registry';
import { optionalLogin, requireLogin } from '../auth';
import {
  changePassword,
  getPushUrl,
  loginWithPassword,
  registerWithPassword,
  savePushUrl,
  updateDisplayName,
  type LoginResult,
  type PublicUser,
  revokeTokens,
} from '../../models/accounts';
import { pickablePeople } from '../../models/members';
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

async function login({ input, ip }: ActionContext<Input<'user', 'login'>>) {
  const result = await loginWithPassword({
    username: input.username,
    password: input.password,
    captchaId: input.captcha_id,
    captcha: input.captcha,
    ip,
  });
  return loginData(result);
}

async function register({ input, ip }: ActionContext<Input<'user', 'register'>>) {
  const result = await registerWithPassword({
    username: input.username,
    password: input.password,
    confirmPassword: input.confirm_password,
    captchaId: input.captcha_id,
    captcha: input.captcha,
    ip,
  });
  return loginData(result);
}

export const userController = defineController('user', userContract, {
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
    await updateDisplayName(actor.uid, ctx.input.name);
  },

  async resetPassword(ctx) {
    const { actor } = await requireLogin(ctx);
    await changePassword(actor.uid, {
      currentPassword: ctx.input.password,
      newPassword: ctx.input.new_password,
    });
  },

  /** Logs the caller out on every device; succeeds even without a valid token (§2.4). */
  async logout(ctx) {
    const { actor } = await optionalLogin(ctx);
    if (actor.uid > 0) await revokeTokens(actor.uid);
  },

  /** The member pickers' list: ShowDoc's three fields plus `value` (the username). */
  async allUser(ctx) {
    const { actor } = await requireLogin(ctx);
    return pickablePeople(actor, ctx.input.username);
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
    await savePushUrl(actor.uid, ctx.input.push_url);
  },
});
