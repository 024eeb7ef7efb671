/**
 * Logging in and out, as every screen does it: store the login answer (plus the cookie the
 * attachment server reads), or end the session on the server, clear what the browser kept, and
 * go to the start page.
 */
import { logout as logoutCall } from '../api/user';
import type { LoginData } from '../api/types';
import { LANGUAGE_STORAGE_KEY } from '../i18n';
import { clearAllStorage, setTokenCookie, storeLogin } from './storage';

export function rememberLogin(data: LoginData): void {
  storeLogin({
    ...data,
    uid: String(data.uid),
    username: data.username,
    name: data.name ?? '',
    groupid: String(data.groupid),
    user_token: data.user_token,
  });
  setTokenCookie(data.user_token);
}

/** Ends the session everywhere (the server call may fail: the browser side is cleared anyway). */
export async function logoutAndLeave(navigate: (to: string) => void): Promise<void> {
  try {
    await logoutCall();
  } catch {
    // offline or token already dead: nothing more to end on the server
  }
  clearAllStorage([LANGUAGE_STORAGE_KEY]);
  navigate('/');
}
