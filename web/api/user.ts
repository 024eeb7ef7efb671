/** Account calls (reference accounts §8). */
import type { Output } from '../../api/contracts';
import type { LoginData, UserInfo, UserOption } from './types';
import { request, type RequestOptions } from './request';

export interface Credentials {
  username: string;
  password: string;
  captcha: string;
  captcha_id: number;
}

/** Login and registration handle their errors (alert + fresh captcha) themselves. */
export const login = (input: Credentials) =>
  request<LoginData>('user/loginByVerify', { ...input, redirect_login: 'false' }, { alert: false });

export const register = (input: Credentials & { confirm_password: string }) =>
  request<LoginData>('user/registerByVerify', { ...input, inviteCode: '' }, { alert: false });

export const userInfo = (options: RequestOptions = {}) =>
  request<UserInfo>('user/info', { redirect_login: 'false' }, options);

/** External login's one-minute, single-use login code → a token (the bridge's first step). */
export const redeemLoginCode = (code: string) =>
  request<Output<'extlogin', 'redeem'>>(
    'ExtLogin/redeem',
    { login_code: code },
    { alert: false, redirect: false },
  );

export const updateName = (name: string) => request<unknown>('user/updateInfo', { name });

export const resetPassword = (password: string, newPassword: string) =>
  request<unknown>('user/resetPassword', { password, new_password: newPassword });

/** Ends every session of the user; succeeds even with a dead token. */
export const logout = () =>
  request<unknown>('user/logout', { confirm: '1' }, { alert: false, redirect: false });

export const allUsers = (username: string) => request<UserOption[]>('user/allUser', { username });
