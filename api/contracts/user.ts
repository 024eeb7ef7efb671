/** `user` and `common` (reference accounts §8, §9): sign-in, the caller's profile, site settings. */
import { z } from 'zod';
import { action, id, nothing, str } from './coerce';

/** The login / registration answer: what the web app keeps in localStorage `userinfo`. */
export const LoginData = z.object({
  uid: z.string(),
  username: z.string(),
  name: z.string(),
  groupid: z.string(),
  avatar: z.string().optional(),
  email: z.string().optional(),
  user_token: z.string(),
});

export const UserInfo = z.object({
  uid: z.string(),
  username: z.string(),
  name: z.string(),
  groupid: z.string(),
  email: z.string().optional(),
  reg_time: z.string().optional(),
  is_sso: z.string().optional(),
});

export const UserOption = z.object({
  username: z.string(),
  uid: z.string(),
  name: z.string().nullable(),
  /** The username again (seed 000 §7: the pickers' option value). */
  value: z.string(),
});

export const OauthInfo = z.object({
  oauth2_open: z.union([z.string(), z.number()]).nullable(),
  oauth2_entrance_tips: z.string(),
});

export const HomePageSetting = z.object({
  home_page: z.string(),
  home_item: z.string(),
  beian: z.string(),
  register_open: z.number(),
  is_show_ai: z.number().optional(),
});

const credentials = { username: str(), password: str(), captcha_id: id(), captcha: str() };

export const userContract = {
  login: action(credentials, LoginData),
  loginByVerify: action(credentials, LoginData),
  register: action({ ...credentials, confirm_password: str() }, LoginData),
  registerByVerify: action({ ...credentials, confirm_password: str() }, LoginData),
  info: action({}, UserInfo),
  updateInfo: action({ name: str() }, nothing),
  resetPassword: action({ password: str(), new_password: str() }, nothing),
  logout: action({}, nothing),
  allUser: action({ username: str() }, z.array(UserOption)),
  oauthInfo: action({}, OauthInfo),
  getPushUrl: action({}, z.object({ push_url: z.string() })),
  savePushUrl: action({ push_url: str() }, nothing),
};

export const commonContract = {
  homePageSetting: action({}, HomePageSetting),
  version: action({}, z.object({ version: z.string() })),
  createCaptcha: action({}, z.object({ captcha_id: z.union([z.number(), z.string()]) })),
};
