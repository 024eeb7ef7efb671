/**
 * Marks the unread notices on screen as read 2 s after they appear (spec 000 §4), then refreshes
 * the header badge. Leaving within the 2 s leaves them unread.
 */
import { useEffect } from 'react';
import { setRead } from './api';
import { MARK_READ_DELAY_MS } from './constants';
import { useUnread } from './unreadContext';

export interface Readable {
  message_content_id: string | number;
  from_uid?: string | number;
  status: string | number;
}

export function useMarkRead(rows: Readable[] | null): void {
  const { refresh } = useUnread();
  useEffect(() => {
    const unread = (rows ?? []).filter((row) => Number(row.status) === 0);
    if (!unread.length) return;
    const timer = setTimeout(() => {
      Promise.allSettled(
        unread.map((row) => setRead(row.message_content_id, row.from_uid ?? 0)),
      ).then(() => refresh());
    }, MARK_READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rows, refresh]);
}
