/** The notice centre (reference accounts §9.20). */
import type { Announcement, Paged, RemindMessage, UnreadAnswer } from '../../api/types';
import { request } from '../../api/request';

export async function remindList(page: number, count: number): Promise<Paged<RemindMessage>> {
  const data = await request<{ list: RemindMessage[]; total: number | string }>(
    'message/getRemindList',
    { page, count },
  );
  return { list: data.list ?? [], total: Number(data.total ?? 0) };
}

/** ShowDoc answers a bare array, Quire `{list, total}` when paged: both are accepted. */
export async function announcementList(page: number, count: number): Promise<Paged<Announcement>> {
  const data = await request<Announcement[] | { list: Announcement[]; total: number | string }>(
    'message/getAnnouncementList',
    { page, count },
  );
  if (Array.isArray(data)) {
    const start = (page - 1) * count;
    return { list: data.slice(start, start + count), total: data.length };
  }
  return { list: data.list ?? [], total: Number(data.total ?? 0) };
}

/** Background check: never alerts, never redirects. */
export const unread = () =>
  request<UnreadAnswer>('message/getUnread', {}, { alert: false, redirect: false });

export const setRead = (messageContentId: string | number, fromUid: string | number = 0) =>
  request<unknown>(
    'message/setRead',
    { message_content_id: messageContentId, from_uid: fromUid },
    { alert: false },
  );
