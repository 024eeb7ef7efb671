/**
 * The page's shared document, kept in the browser too when its item is available offline
 * (web/features/offline): the first edit made with no connection queues the page for the
 * reconnect sync, with the version it started from and the title, catalog and ID it is to be
 * saved under (`pending`, which the editor keeps current).
 */
import { useMemo, useRef } from 'react';
import { markPending, offlineItem } from '../offline/store';
import { useCollabDoc } from './useCollabDoc';

export interface PendingMeta {
  title: string;
  catId: number;
  customId: string;
}

export function useKeptCollabDoc(session: {
  pageId: number;
  itemId: number;
  title: string;
  catId: number;
  customId: string;
  savedVersion: string;
  savedContent: string;
}) {
  const { pageId, itemId } = session;
  const keep = useMemo(() => !!pageId && !!offlineItem(itemId), [pageId, itemId]);
  const pending = useRef<PendingMeta>({
    title: session.title,
    catId: session.catId,
    customId: session.customId,
  });
  const marked = useRef(false);
  const collab = useCollabDoc(pageId, keep, () => {
    if (marked.current) return;
    marked.current = true;
    markPending({
      pageId,
      itemId,
      ...pending.current,
      baseAddtime: session.savedVersion,
      baseContent: session.savedContent,
      since: Date.now(),
    });
  });
  // Connected again: the reconnect sync takes the queued page; a later cut starts a new entry.
  if (!collab.offline) marked.current = false;
  return { collab, pending };
}
