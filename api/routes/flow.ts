/**
 * `flow/*` (ShowDoc's FlowController): test flows of an item's API pages, plus Quire's
 * `flow/setFlowPageExtract` (JSONPath extractions of a step) and `flow/run` (the server-side
 * runner, through the HTTP relay's address policy).
 */
import { readInt } from '../contracts';
import { errors } from '../../models/platform';
import {
  addFlowPage,
  deleteFlow,
  deleteFlowPage,
  listFlowPages,
  listFlows,
  runFlow,
  saveFlow,
  saveFlowSort,
  setFlowPageExtract,
  setFlowPagesEnabled,
  type FlowSettings,
} from '../../models/workbench';
import { requireLogin } from '../auth';
import { flowContract } from '../contracts';
import { defineController } from '../registry';

const SETTINGS = ['env_id', 'times', 'time_interval', 'error_continue', 'save_change'] as const;

export const flowController = defineController('flow', flowContract, {
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    // Only the settings sent change (ShowDoc: array_key_exists on the body).
    const settings: FlowSettings = { flow_name: ctx.input.flow_name };
    for (const name of SETTINGS) {
      const value = ctx.input[name];
      if (value === undefined || value === null) continue;
      const n = readInt(value, 0);
      if (n === null) throw errors.badParam(name);
      settings[name] = n;
    }
    return saveFlow(actor, { id: ctx.input.id, itemId: ctx.input.item_id, settings });
  },

  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listFlows(actor, ctx.input.item_id);
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteFlow(actor, ctx.input.id);
  },

  async addFlowPage(ctx) {
    const { actor } = await requireLogin(ctx);
    return addFlowPage(actor, ctx.input.flow_id, ctx.input.page_id);
  },

  async deleteFlowPage(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteFlowPage(actor, ctx.input.id);
  },

  async getFlowPageList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listFlowPages(actor, ctx.input.flow_id);
  },

  async saveSort(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveFlowSort(actor, ctx.input.flow_id, ctx.input.orders);
  },

  async setFlowPageEnabled(ctx) {
    const { actor } = await requireLogin(ctx);
    return setFlowPagesEnabled(actor, ctx.input.flow_id, ctx.input.ids);
  },

  async setFlowPageExtract(ctx) {
    const { actor } = await requireLogin(ctx);
    return setFlowPageExtract(actor, ctx.input.id, ctx.input.extract);
  },

  async run(ctx) {
    const { actor } = await requireLogin(ctx);
    return runFlow(
      actor,
      { flowId: ctx.input.flow_id, envId: ctx.input.env_id, runId: ctx.input.run_id.slice(0, 64) },
      { allowHosts: ctx.config.allowPrivateHosts, subject: 'The flow runner' },
    );
  },
});
