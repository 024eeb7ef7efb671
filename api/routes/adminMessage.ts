/**
 * `adminMessage/*` (ShowDoc's admin back office, "publish system announcement"): site admins
 * publish and list announcements. Rules in models/notices/announcements.ts.
 */
import { addAnnouncement, adminAnnouncements, paging } from '../../models/notices';
import { requireAdmin } from '../auth';
import { adminMessageContract } from '../contracts';
import { defineController } from '../registry';

const PAGE_SIZE = 20;

export const adminMessageController = defineController('adminMessage', adminMessageContract, {
  async addAnnouncement(ctx) {
    const { actor } = await requireAdmin(ctx);
    return addAnnouncement(actor, {
      content: ctx.input.message_content,
      type: ctx.input.message_type.trim(),
      sendAt: ctx.input.send_at,
    });
  },

  async listAnnouncements(ctx) {
    const { actor } = await requireAdmin(ctx);
    const rows = await adminAnnouncements(
      actor,
      paging(ctx.input.page, ctx.input.count, PAGE_SIZE),
    );
    return rows.map((c) => ({
      id: String(c.id),
      from_uid: String(c.from_uid),
      from_name: c.from_name,
      message_type: c.message_type,
      message_content: c.message_content,
      action_type: c.action_type,
      object_type: c.object_type,
      object_id: String(c.object_id),
      addtime: c.addtime,
    }));
  },
});
