/**
 * `page/history`, `page/updateHistoryComments`, `page/diff` (reference pages §3.6–3.8): a page's
 * kept versions. Rules in models/pages/pageHistory.ts.
 */
import { listVersions, pageAndVersion, updateVersionRemark } from '../../models/pages';
import { itemPassword, optionalLogin } from '../auth';
import { pageHistoryContract } from '../contracts';
import { defineController } from '../registry';
import { historyRow, pageRow } from './pagePresent';

export const pageHistoryController = defineController('page', pageHistoryContract, {
  async history(ctx) {
    const { actor } = await optionalLogin(ctx);
    const rows = await listVersions(actor, ctx.input.page_id, {
      itemPassword: itemPassword(ctx),
    });
    return rows.map((row) => historyRow(row, { times: 'formatted', quotes: false }));
  },

  async updateHistoryComments(ctx) {
    const { actor } = await optionalLogin(ctx);
    const success = await updateVersionRemark(actor, {
      pageId: ctx.input.page_id,
      pageHistoryId: ctx.input.page_history_id,
      remark: ctx.input.page_comments,
    });
    return { success };
  },

  async diff(ctx) {
    const { actor } = await optionalLogin(ctx);
    const { page, version } = await pageAndVersion(
      actor,
      ctx.input.page_id,
      ctx.input.page_history_id,
      {
        itemPassword: itemPassword(ctx),
      },
    );
    return {
      page: pageRow(page, { times: 'raw' }),
      history_page: historyRow(version, { times: 'raw', quotes: true }),
    };
  },
});
