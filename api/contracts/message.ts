/** `message` (reference accounts §11): reminders, announcements, the unread badge. */
import { z } from 'zod';
import { action, id, int, maybeInt, nothing } from './coerce';

export const PageRef = z.object({
  item_id: z.union([z.string(), z.number()]),
  page_id: z.union([z.string(), z.number()]),
  page_title: z.string(),
});

export const RemindMessage = z.object({
  id: z.string().optional(),
  from_uid: z.string(),
  from_name: z.string().optional(),
  message_content_id: z.string(),
  message_content: z.string().optional(),
  addtime: z.string(),
  status: z.union([z.string(), z.number()]),
  action_type: z.string().optional(),
  object_type: z.string().optional(),
  page_data: PageRef.optional(),
});

export const Announcement = z.object({
  message_content_id: z.string(),
  from_uid: z.string().optional(),
  from_name: z.string().optional(),
  message_content: z.string(),
  addtime: z.string(),
  status: z.union([z.string(), z.number()]),
});

/** `getUnread`: each field is `[]` when there is nothing, else the newest unread notice. */
export const UnreadAnswer = z.object({
  remind: z.union([RemindMessage, z.array(z.unknown())]),
  announce: z.union([Announcement, z.array(z.unknown())]),
});

const paging = { page: int(1), count: int(15) };

export const messageContract = {
  getRemindList: action(paging, z.object({ total: z.number(), list: z.array(RemindMessage) })),
  /** A plain list without paging parameters (absent: `undefined`), `{total, list}` with them. */
  getAnnouncementList: action(
    { page: maybeInt(1), count: maybeInt(15) },
    z.union([z.object({ total: z.number(), list: z.array(Announcement) }), z.array(Announcement)]),
  ),
  getUnread: action({}, UnreadAnswer),
  setRead: action({ message_content_id: id() }, nothing),
  delete: action({ message_content_id: id() }, nothing),
};
