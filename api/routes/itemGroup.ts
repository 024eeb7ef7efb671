/**
 * `itemGroup/*` (reference accounts §9.1): the caller's own item groups. Rules in
 * models/items/itemGroups.ts.
 */
import { errors } from '../../models/platform';
import { deleteGroup, listGroups, saveGroup, sortGroups } from '../../models/items';
import { requireLogin } from '../auth';
import { itemGroupContract } from '../contracts';
import { defineController } from '../registry';

const MAX_SORT_ENTRIES = 1000;

/** `[{id, s_number}]` from a JSON string (ShowDoc entity-decodes it first) or a JSON body array. */
function parseGroupOrder(raw: unknown): { id: number; s_number: number }[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value.replace(/&quot;/g, '"'));
    } catch {
      throw errors.failed('groups must be a JSON list of {id, s_number}');
    }
  }
  if (!Array.isArray(value) || !value.length) throw errors.failed('groups is required');
  if (value.length > MAX_SORT_ENTRIES) throw errors.failed('Too many groups');
  return value.map((entry) => {
    const { id, s_number } = (entry ?? {}) as Record<string, unknown>;
    const toInt = (v: unknown) =>
      typeof v === 'number'
        ? v
        : typeof v === 'string' && /^-?\d+$/.test(v.trim())
          ? Number(v)
          : NaN;
    const n = { id: toInt(id), s_number: toInt(s_number) };
    if (!Number.isSafeInteger(n.id) || !Number.isSafeInteger(n.s_number))
      throw errors.failed('groups must be a JSON list of {id, s_number}');
    return n;
  });
}

export const itemGroupController = defineController('itemGroup', itemGroupContract, {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listGroups(actor);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveGroup(actor, {
      id: ctx.input.id,
      group_name: ctx.input.group_name,
      item_ids: ctx.input.item_ids,
    });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteGroup(actor, ctx.input.id);
    return { success: true };
  },

  async saveSort(ctx) {
    const { actor } = await requireLogin(ctx);
    await sortGroups(actor, parseGroupOrder(ctx.input.groups));
    return [];
  },
});
