/**
 * `mock/*` (reference pages §7): an editor's mock response for a page. Rules in models/mocks/mocks.ts;
 * the public mock URLs (`/server/mock-data/…`, `/server/mock-path/…`) are served by
 * api/mockServing.ts.
 */
import { mockOfPage, saveMock } from '../../models/mocks';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { mockContract } from '../contracts';
import { defineController } from '../registry';

export const mockController = defineController('mock', mockContract, {
  async add(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveMock(actor, {
      pageId: ctx.input.page_id,
      template: ctx.input.template,
      path: ctx.input.path,
    });
  },

  async infoByPageId(ctx) {
    const { actor } = await optionalLogin(ctx);
    const mock = await mockOfPage(actor, ctx.input.page_id, itemPassword(ctx));
    if (!mock) return [];
    return {
      id: String(mock.id),
      unique_key: mock.unique_key,
      uid: String(mock.uid),
      page_id: String(mock.page_id),
      item_id: String(mock.item_id),
      view_times: String(mock.view_times),
      template: mock.template,
      path: mock.path,
      addtime: mock.addtime,
      last_update_time: mock.last_update_time,
    };
  },
});
