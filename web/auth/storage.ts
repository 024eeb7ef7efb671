/**
 * The stored login, where ShowDoc's clients keep it: localStorage `userinfo`, the login answer
 * (uid, username, name, groupid, user_token, …) as JSON. Every tab reads the same entry, so a
 * login survives a reload and is shared across tabs; a change in another tab is picked up
 * through the `storage` event.
 *
 * React reads it with useSyncExternalStore (see useLogin.ts); everything else calls the
 * functions here.
 */
export const USERINFO_KEY = 'userinfo';
/** The item-list view remembered between visits (ShowDoc's spelling, kept for compatibility). */
export const DEFAULT_GROUP_KEY = 'deaultItemGroupId';
/** Session storage: the visit password of a private item, sent as `_item_pwd`. */
export const ITEM_PASSWORD_KEY = '_item_pwd';
/** ShowDoc's client-side login cookie: the attachment server reads it so `<img>` tags of private pages load. */
const COOKIE_NAME = 'cookie_token';
const COOKIE_DAYS_MS = 15_552_000_000; // 180 days (spec 000 §9)

export interface StoredLogin {
  uid: string;
  username: string;
  name: string;
  groupid: string;
  user_token: string;
  [field: string]: unknown;
}

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: StoredLogin | null = null;

function readRaw(): string | null {
  try {
    return localStorage.getItem(USERINFO_KEY);
  } catch {
    return null;
  }
}

/** The stored login, or null (also for a corrupt entry or one without a token). */
export function getStoredLogin(): StoredLogin | null {
  const raw = readRaw();
  if (raw === cachedRaw) return cached; // stable identity for useSyncExternalStore
  cachedRaw = raw;
  cached = null;
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Partial<StoredLogin> | null;
      if (parsed && typeof parsed.user_token === 'string' && parsed.user_token)
        cached = {
          ...parsed,
          uid: String(parsed.uid ?? ''),
          username: String(parsed.username ?? ''),
          name: parsed.name ? String(parsed.name) : '',
          groupid: String(parsed.groupid ?? ''),
          user_token: parsed.user_token,
        };
    } catch {
      cached = null;
    }
  }
  return cached;
}

export function getToken(): string {
  return getStoredLogin()?.user_token ?? '';
}

export function isAdmin(login: StoredLogin | null): boolean {
  return login?.groupid === '1';
}

function notify(): void {
  for (const listener of [...listeners]) listener();
}

export function storeLogin(login: StoredLogin): void {
  try {
    localStorage.setItem(USERINFO_KEY, JSON.stringify(login));
  } catch {
    // storage disabled: the login lasts as long as this page
  }
  notify();
}

/** Merges fresh profile fields (user/info, a name change) into the stored login. */
export function updateStoredLogin(fields: Partial<StoredLogin>): void {
  const current = getStoredLogin();
  if (!current) return;
  storeLogin({ ...current, ...fields, user_token: current.user_token });
}

export function clearLogin(): void {
  try {
    localStorage.removeItem(USERINFO_KEY);
  } catch {
    // nothing stored
  }
  notify();
}

/**
 * Logout: ShowDoc clears cookies and all local storage. The interface language (`help_lang`) is
 * kept: it belongs to the device, not the account, and losing it would switch a Chinese reader
 * to English on the way out.
 */
export function clearAllStorage(keep: string[] = []): void {
  try {
    const kept = keep.map((key) => [key, localStorage.getItem(key)] as const);
    localStorage.clear();
    for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
    sessionStorage.clear();
  } catch {
    // storage disabled
  }
  document.cookie = `${COOKIE_NAME}=; path=/; max-age=0; SameSite=Strict`;
  notify();
}

/** Set at every login and by the token-login bridge (180 days, SameSite=Strict, not HttpOnly). */
export function setTokenCookie(token: string): void {
  const expires = new Date(Date.now() + COOKIE_DAYS_MS).toUTCString();
  document.cookie = `${COOKIE_NAME}=${encodeURIComponent(token)}; path=/; expires=${expires}; SameSite=Strict`;
}

export function subscribeLogin(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === USERINFO_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function getItemPassword(): string {
  try {
    return sessionStorage.getItem(ITEM_PASSWORD_KEY) ?? '';
  } catch {
    return '';
  }
}

export function setItemPassword(password: string): void {
  try {
    sessionStorage.setItem(ITEM_PASSWORD_KEY, password);
  } catch {
    // not remembered: the reader asks again
  }
}
