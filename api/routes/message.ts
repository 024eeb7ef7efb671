/**
 * `message/*` (reference accounts §9.20, spec 000 §7): the notice centre — reminders and system
 * announcements, unread state. Rules in models/notices/notices.ts and models/notices/announcements.ts.
 *
 * Shapes as ShowDoc answered them: stored columns as strings, `object_id` a number, `page_data`
 * the page row without its content, and `getUnread` fields `[]` when there is nothing.
 * `getAnnouncementList` answers ShowDoc's bare array when called without paging (as ShowDoc's
 * own client calls it) and `{list, total}` when `page`/`count` are sent (as the spec's client
 * does and reads it).
 */
import {
  deleteNotice,
  listAnnouncements,
  listReminders,
  markRead,
  type MessageContentDoc,
  paging,
  type Reminder,
  unreadNotices,
} from '../../models/notices';
import { requireLogin } from '../auth';
import { messageContract } from '../contracts';
import { defineController } from '../registry';
import { pageRow } from './pagePresent';

const REMIND_PAGE_SIZE = 15;
const ANNOUNCE_PAGE_SIZE = 15;

function contentRow(c: MessageContentDoc) {
  return {
    id: String(c.id),
    from_uid: String(c.from_uid),
    from_name: c.from_name,
    message_type: c.message_type,
    message_content: c.message_content,
    action_type: c.action_type,
    object_type: c.object_type,
    object_id: String(c.object_id),
    addtime: c.addtime,
  };
}

function reminderRow({ message: m, content, page }: Reminder) {
  const row: Record<string, unknown> = {
    id: String(m.id),
    from_uid: String(m.from_uid),
    to_uid: String(m.to_uid),
    message_type: m.message_type,
    message_content_id: String(m.message_content_id),
    status: String(m.status),
    addtime: m.addtime,
    readtime: m.readtime,
  };
  if (content) {
    row.object_type = content.object_type;
    row.object_id = content.object_id;
    row.action_type = content.action_type;
    row.message_content = content.message_content;
    row.from_name = content.from_name;
  }
  if (page) {
    const { page_content: _content, ...data } = pageRow(
      { ...page, page_content: '' },
      { times: 'raw' },
    );
    row.page_data = data;
  }
  return row;
}

export const messageController = defineController('message', messageContract, {
  async getRemindList(ctx) {
    const { actor } = await requireLogin(ctx);
    const { total, list } = await listReminders(
      actor,
      paging(ctx.input.page, ctx.input.count, REMIND_PAGE_SIZE),
    );
    return { total, list: list.map(reminderRow) };
  },

  async getAnnouncementList(ctx) {
    const { actor } = await requireLogin(ctx);
    const { page, count } = ctx.input;
    const paged = page !== undefined || count !== undefined;
    const { total, list } = await listAnnouncements(
      actor,
      paged ? paging(page ?? 1, count ?? ANNOUNCE_PAGE_SIZE, ANNOUNCE_PAGE_SIZE) : undefined,
    );
    const rows = list.map(({ content, read }) => ({
      ...contentRow(content),
      status: read ? 1 : 0,
      message_content_id: String(content.id),
    }));
    return paged ? { total, list: rows } : rows;
  },

  async getUnread(ctx) {
    const { actor } = await requireLogin(ctx);
    const { remind, announce } = await unreadNotices(actor);
    return {
      remind: remind ? reminderRow(remind) : [],
      announce: announce
        ? { ...contentRow(announce), message_content_id: String(announce.id) }
        : [],
    };
  },

  async setRead(ctx) {
    const { actor } = await requireLogin(ctx);
    await markRead(actor, ctx.input.message_content_id);
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteNotice(actor, ctx.input.message_content_id);
  },
});
