/**
 * `recycle/*` (reference pages §8): an item's recycle bin, for its managers. Rules in
 * models/pages/recycle.ts (recovery into the original catalog, purge 30 days after deletion).
 */
import { listRecycleBin, recoverPage } from '../../models/pages';
import { formatUnix } from '../../models/platform';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const recycleController = defineController('recycle', {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) return [];
    const rows = await listRecycleBin(actor, itemId);
    return rows.map((row) => ({
      id: String(row.id),
      item_id: String(row.item_id),
      page_id: String(row.page_id),
      page_title: row.page_title,
      del_by_uid: String(row.del_by_uid),
      del_by_username: row.del_by_username,
      del_time: formatUnix(row.del_time),
    }));
  },

  async recover(ctx) {
    const { actor } = await requireLogin(ctx);
    await recoverPage(actor, ctx.params.int('item_id'), ctx.params.int('page_id'));
    return [];
  },
});
