/**
 * Telling the user about a new reminder: a browser notification that stays until they interact
 * with it when they allowed notifications, else an in-page notification for 30 s (spec 000 §9).
 * Either way, acting on it (or closing the in-page one) marks the reminder read 2 s later.
 */
import type { NotificationInstance } from 'antd/es/notification/interface';
import { setRead } from './api';
import { IN_PAGE_NOTICE_MS, MARK_READ_DELAY_MS, REMIND_TAB } from './constants';

export interface ReminderNotice {
  title: string;
  body: string;
  fromUid: string | number;
  contentId: string | number;
}

export const NOTICE_CENTRE_URL = `/message/index?dtab=${REMIND_TAB}`;

function markReadSoon(notice: ReminderNotice, after?: () => void): void {
  setTimeout(() => {
    setRead(notice.contentId, notice.fromUid).then(after, () => {});
  }, MARK_READ_DELAY_MS);
}

export function browserNotificationsAllowed(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

export function showReminder(
  notice: ReminderNotice,
  inPage: NotificationInstance,
  onRead: () => void,
  openCentre: () => void,
): void {
  if (browserNotificationsAllowed()) {
    const shown = new Notification(notice.title, {
      body: notice.body,
      requireInteraction: true,
      tag: `${notice.fromUid}_${notice.contentId}`,
    });
    shown.onclick = () => {
      window.focus();
      openCentre();
      markReadSoon(notice, onRead);
      shown.close();
    };
    return;
  }
  const key = `remind-${notice.contentId}`;
  inPage.info({
    key,
    title: notice.title,
    description: notice.body,
    duration: IN_PAGE_NOTICE_MS / 1000,
    style: { cursor: 'pointer' },
    onClick: () => {
      openCentre();
      inPage.destroy(key);
    },
    onClose: () => markReadSoon(notice, onRead),
  });
}
