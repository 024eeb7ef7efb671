/**
 * The unread state of the logged-in user, kept live:
 * - the realtime `unread` push sets the counts; a `notice` push of a new reminder fetches it and
 *   shows it (browser or in-page notification);
 * - `message/getUnread` is read once 2 s after start, every 5 minutes only while the socket is
 *   down (spec 000 §9; DESIGN §5: pushes replace the poll), and once on every reconnect: pushes
 *   sent while the socket was down (a realtime host gone, a network drop) never arrive.
 */
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { unread } from './api';
import type { RemindMessage } from '../../api/types';
import { useLiveConnected } from '../../live/context';
import { useLiveEvent } from '../../live/useLiveEvent';
import { FIRST_UNREAD_CHECK_MS, UNREAD_POLL_MS } from './constants';
import { NOTICE_CENTRE_URL, showReminder } from './reminderNotification';
import { UnreadContext } from './unreadContext';

/** The toast's words by the reminder's kind (others: a page update). */
const NOTICE_TEXT: Record<string, string> = {
  comment: 'comments.notice',
  suggest: 'suggest.notice',
};

function isReminder(value: unknown): value is RemindMessage {
  return (
    !!value && !Array.isArray(value) && typeof value === 'object' && 'message_content_id' in value
  );
}

export function UnreadProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const connected = useLiveConnected();
  const [counts, setCounts] = useState({ remind: 0, announce: 0 });
  // Reminders already shown in this tab (a poll or a second push must not repeat them).
  const shown = useRef(new Set<string>());

  const refresh = useCallback(async () => {
    let answer;
    try {
      answer = await unread();
    } catch {
      return; // offline or logged out: the badge keeps what it had
    }
    const remind = isReminder(answer.remind) ? answer.remind : null;
    const announce = answer.announce && !Array.isArray(answer.announce) ? 1 : 0;
    setCounts((c) => ({
      remind: remind ? Math.max(c.remind, 1) : 0,
      announce: announce ? Math.max(c.announce, 1) : 0,
    }));
    if (!remind || remind.object_type !== 'page') return;
    const id = String(remind.message_content_id);
    if (shown.current.has(id)) return;
    shown.current.add(id);
    showReminder(
      {
        title: t('notices.notificationTitle'),
        body: t(NOTICE_TEXT[remind.action_type ?? ''] ?? 'notices.pageUpdated', {
          name: remind.from_name ?? '',
          title: remind.page_data?.page_title ?? '',
        }),
        fromUid: remind.from_uid,
        contentId: id,
      },
      notification,
      () => void refresh(),
      () => void navigate(NOTICE_CENTRE_URL),
    );
  }, [t, notification, navigate]);

  useEffect(() => {
    const first = setTimeout(() => void refresh(), FIRST_UNREAD_CHECK_MS);
    return () => clearTimeout(first);
  }, [refresh]);

  // 'down' only after having been connected: the first connection is covered by the check above.
  const link = useRef<'never' | 'up' | 'down'>('never');
  useEffect(() => {
    if (connected) {
      if (link.current === 'down') void refresh();
      link.current = 'up';
    } else if (link.current === 'up') link.current = 'down';
  }, [connected, refresh]);

  useEffect(() => {
    if (connected) return;
    const timer = setInterval(() => void refresh(), UNREAD_POLL_MS);
    return () => clearInterval(timer);
  }, [connected, refresh]);

  useLiveEvent('unread', (payload) =>
    setCounts({ remind: Number(payload.remind) || 0, announce: Number(payload.announce) || 0 }),
  );
  useLiveEvent('notice', (payload) => {
    if (payload.kind === 'announce') setCounts((c) => ({ ...c, announce: c.announce + 1 }));
    else void refresh(); // fetch the reminder with its page title, then show it
  });

  return <UnreadContext.Provider value={{ ...counts, refresh }}>{children}</UnreadContext.Provider>;
}
