/** Loads the page being read (started early by prefetch.ts when the address names it). */
import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError } from '../../api/request';
import { takePage } from './prefetch';
import type { PageInfo } from './types';

export type PageState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; page: PageInfo }
  | { status: 'error'; code: number; message: string };

export function usePage(pageId: number) {
  const [state, setState] = useState<PageState>({ status: 'idle' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!(pageId > 0)) {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState((s) =>
      s.status === 'ready' && s.page.page_id === String(pageId) ? s : { status: 'loading' },
    );
    takePage(pageId).then(
      (page) => current && setState({ status: 'ready', page }),
      (error: unknown) => {
        if (!current) return;
        const code = error instanceof ApiRequestError ? error.code : -1;
        const message = error instanceof Error ? error.message : String(error);
        setState({ status: 'error', code, message });
      },
    );
    return () => {
      current = false;
    };
  }, [pageId, version]);

  /** Reads the page again (after a live update), keeping the current one on screen meanwhile. */
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { state, reload };
}
