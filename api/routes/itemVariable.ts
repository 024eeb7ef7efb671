/** `itemVariable/*` (ShowDoc's ItemVariableController): an item's variables per environment. */
import { readBool } from '../contracts';
import {
  deleteVariable,
  deleteVariableByName,
  listVariables,
  saveVariable,
} from '../../models/workbench';
import { requireLogin } from '../auth';
import { itemVariableContract } from '../contracts';
import { defineController } from '../registry';
import { errors } from '../../models/platform';

export const itemVariableController = defineController('itemVariable', itemVariableContract, {
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id, env_id, var_name, var_value, is_secret } = ctx.input;
    const secret = is_secret === undefined ? undefined : readBool(is_secret, false);
    if (secret === null) throw errors.badParam('is_secret');
    return saveVariable(actor, {
      itemId: item_id,
      envId: env_id,
      name: var_name,
      value: var_value,
      secret,
    });
  },

  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listVariables(actor, ctx.input.item_id, ctx.input.env_id);
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteVariable(actor, ctx.input.item_id, ctx.input.id);
  },

  async deleteByName(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id, env_id, var_name } = ctx.input;
    return deleteVariableByName(actor, { itemId: item_id, envId: env_id, name: var_name });
  },
});
