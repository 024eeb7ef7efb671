/** `runapi/*` (ShowDoc's RunapiController): environments, the selected one, global params, DB configs. */
import {
  deleteDbConfig,
  deleteEnv,
  globalParams,
  listDbConfigs,
  listEnvs,
  saveDbConfig,
  saveEnv,
  selectEnv,
  selectedEnv,
  updateGlobalParam,
} from '../../models/workbench';
import { requireLogin } from '../auth';
import { runapiContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

type EnvInput = { env_id: number; env_name: string; item_id: number };

async function addEnv(ctx: ActionContext<EnvInput>) {
  const { actor } = await requireLogin(ctx);
  const { env_id, env_name, item_id } = ctx.input;
  return saveEnv(actor, { envId: env_id, envName: env_name, itemId: item_id });
}

export const runapiController = defineController('runapi', runapiContract, {
  addEnv,
  updateEnv: addEnv,

  async getEnvList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listEnvs(actor, ctx.input.item_id, 'Default');
  },

  async delEnv(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteEnv(actor, ctx.input.env_id);
  },

  async selectEnv(ctx) {
    const { actor } = await requireLogin(ctx);
    return selectEnv(actor, ctx.input.env_id);
  },

  async getSelectEnv(ctx) {
    const { actor } = await requireLogin(ctx);
    return selectedEnv(actor, ctx.input.item_id);
  },

  async getGlobalParam(ctx) {
    const { actor } = await requireLogin(ctx);
    return globalParams(actor, ctx.input.item_id);
  },

  async updateGlobalParam(ctx) {
    const { actor } = await requireLogin(ctx);
    return updateGlobalParam(actor, {
      itemId: ctx.input.item_id,
      paramType: ctx.input.param_type,
      content: ctx.input.content_json_str,
    });
  },

  async getDbConfigList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listDbConfigs(actor, ctx.input.item_id, ctx.input.env_id);
  },

  async saveDbConfig(ctx) {
    const { actor } = await requireLogin(ctx);
    const { config_id, ...fields } = ctx.input;
    return saveDbConfig(actor, { ...fields, configId: config_id });
  },

  async delDbConfig(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteDbConfig(actor, ctx.input.config_id);
  },
});
