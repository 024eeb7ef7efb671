/**
 * `page/history`, `page/updateHistoryComments`, `page/diff` (reference pages §3.6–3.8): a page's
 * kept versions. Rules in models/pages/pageHistory.ts.
 */
import { listVersions, pageAndVersion, updateVersionRemark } from '../../models/pages';
import { itemPassword, optionalLogin } from '../auth';
import { defineController } from '../registry';
import { historyRow, pageRow } from './pagePresent';

export const pageHistoryController = defineController('page', {
  async history(ctx) {
    const { actor } = await optionalLogin(ctx);
    const rows = await listVersions(actor, ctx.params.int('page_id'), {
      itemPassword: itemPassword(ctx),
    });
    return rows.map((row) => historyRow(row, { times: 'formatted', quotes: false }));
  },

  async updateHistoryComments(ctx) {
    const { actor } = await optionalLogin(ctx);
    const success = await updateVersionRemark(actor, {
      pageId: ctx.params.int('page_id'),
      pageHistoryId: ctx.params.int('page_history_id'),
      remark: ctx.params.str('page_comments'),
    });
    return { success };
  },

  async diff(ctx) {
    const { actor } = await optionalLogin(ctx);
    const { page, version } = await pageAndVersion(
      actor,
      ctx.params.int('page_id'),
      ctx.params.int('page_history_id'),
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
