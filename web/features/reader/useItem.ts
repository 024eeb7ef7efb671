/**
 * Loads an item (item/info) for the reader, keeps it fresh on demand, and applies spec 002 §8:
 * no visit right (10303, or 10307 from hosted servers) → the item-password screen with the way
 * back; the site requires a login (10312) → the login screen. A missing item is handled by the
 * API client (back to `/`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiRequestError } from '../../api/request';
import { currentPathAsRedirect } from '../../auth/redirect';
import { fetchReaderItem } from './api';
import { takeItem } from './prefetch';
import type { ItemInfo } from './types';

export const NEEDS_PASSWORD = new Set([10303, 10307]);
export const FORCE_LOGIN = 10312;

export type ItemState =
  | { status: 'loading' }
  | { status: 'ready'; item: ItemInfo }
  | { status: 'error'; message: string };

export function passwordPath(item: string, page: string | undefined, back: string): string {
  const query = new URLSearchParams();
  if (page) query.set('page_id', page);
  query.set('redirect', back);
  return `/item/password/${encodeURIComponent(item)}?${query.toString()}`;
}

export function useItem(itemParam: string, pageIdHint: number) {
  const navigate = useNavigate();
  const location = useLocation();
  const [state, setState] = useState<ItemState>({ status: 'loading' });
  const here = useRef(location);
  here.current = location;
  const hint = useRef(pageIdHint);
  hint.current = pageIdHint;
  /**
   * Reads overlap (a menu change pushed during an import, then the import's own refresh): only
   * the answer of the latest read is applied, so an older answer arriving last never puts a stale
   * menu back on screen.
   */
  const latest = useRef(0);

  const load = useCallback(
    async (quiet: boolean) => {
      const ticket = ++latest.current;
      if (!quiet) setState({ status: 'loading' });
      try {
        const item = await (quiet
          ? fetchReaderItem(itemParam, hint.current)
          : takeItem(itemParam, hint.current));
        if (ticket !== latest.current) return;
        setState({ status: 'ready', item });
      } catch (error) {
        if (ticket !== latest.current) return;
        if (!(error instanceof ApiRequestError)) throw error;
        const { pathname, search } = here.current;
        const back = currentPathAsRedirect(pathname, search);
        if (NEEDS_PASSWORD.has(error.code)) {
          const page = pathname.split('/').filter(Boolean).pop();
          void navigate(passwordPath(itemParam, page !== itemParam ? page : undefined, back), {
            replace: true,
          });
          return;
        }
        if (error.code === FORCE_LOGIN) {
          void navigate(`/user/login?redirect=${encodeURIComponent(back)}`, { replace: true });
          return;
        }
        if (!quiet) setState({ status: 'error', message: error.message });
      }
    },
    [itemParam, navigate],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  /** Re-reads the item in place (menu changed, settings changed): no loading screen. */
  const refresh = useCallback(() => load(true), [load]);
  return { state, refresh };
}
