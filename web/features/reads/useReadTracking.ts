/**
 * Records what a logged-in viewer reads: a page counts as read once it has been on screen (tab
 * visible) for DWELL_MS — a bare load records nothing — and reads are sent in batches (BATCH_MS
 * after the first one waiting, or when the tab is hidden), one call per batch. Anonymous viewers
 * and share views (which do not use this hook) record nothing.
 *
 * It also answers which pages changed since the viewer last read them: item/info's menu flags,
 * minus the pages read on this visit at the version the menu shows.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Menu, MenuCatalog, MenuPage } from '../reader/types';
import { markAllRead, markRead } from './api';
import type { ReadsValue } from './context';

export const DWELL_MS = 3000;
const BATCH_MS = 1000;

function menuPages(menu: Menu): MenuPage[] {
  const out: MenuPage[] = [...menu.pages];
  const visit = (cats: MenuCatalog[]) => {
    for (const cat of cats) {
      out.push(...cat.pages);
      visit(cat.catalogs ?? []);
    }
  };
  visit(menu.catalogs);
  return out;
}

export function useReadTracking(
  itemId: number,
  menu: Menu | null,
  page: { page_id: string; addtime_unix?: number } | null,
  enabled: boolean,
): ReadsValue & { changedAtOpen: (pageId: string) => boolean } {
  // page id → addtime read on this visit
  const [readHere, setReadHere] = useState<ReadonlyMap<string, number>>(new Map());
  const queue = useRef(new Map<number, number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const atOpen = useRef(new Map<string, boolean>());

  const changed = useMemo(() => {
    const out = new Set<string>();
    if (!menu) return out;
    for (const p of menuPages(menu))
      if (p.read_changed === 1 && readHere.get(p.page_id) !== Number(p.addtime)) out.add(p.page_id);
    return out;
  }, [menu, readHere]);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!queue.current.size || !(itemId > 0)) return;
    const batch = [...queue.current].map(([pageId, addtime]) => ({ pageId, addtime }));
    queue.current.clear();
    markRead(itemId, batch).catch(() => {}); // a lost marker only leaves a dot
  }, [itemId]);

  // Pending reads go out when the tab is hidden or the item changes.
  useEffect(() => {
    const onHide = () => document.visibilityState === 'hidden' && flush();
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, [flush]);

  const pageId = page?.page_id ?? '';
  const addtime = page?.addtime_unix ?? 0;
  if (pageId && !atOpen.current.has(pageId)) atOpen.current.set(pageId, changed.has(pageId));

  useEffect(() => {
    if (!enabled || !pageId || !(addtime > 0)) return;
    let dwell: ReturnType<typeof setTimeout> | null = null;
    const start = () => {
      if (dwell || document.visibilityState !== 'visible') return;
      dwell = setTimeout(() => {
        queue.current.set(Number(pageId), addtime);
        setReadHere((m) => new Map(m).set(pageId, addtime));
        timer.current ??= setTimeout(flush, BATCH_MS);
      }, DWELL_MS);
    };
    const stop = () => {
      if (dwell) clearTimeout(dwell);
      dwell = null;
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop());
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [enabled, pageId, addtime, flush]);

  const markAll = useCallback(async () => {
    if (!menu) return;
    await markAllRead(itemId);
    setReadHere(new Map(menuPages(menu).map((p) => [p.page_id, Number(p.addtime)])));
  }, [itemId, menu]);

  return {
    changed,
    markAll: enabled ? markAll : undefined,
    changedAtOpen: (id: string) => atOpen.current.get(id) ?? false,
  };
}
