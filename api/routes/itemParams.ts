/**
 * Parameters several item actions share: the groups an item goes in (`item_group_ids` as an
 * array, JSON array or comma list; or the older single `item_group_id`).
 */
import type { ActionContext } from '../registry';

export function groupIdsParam(ctx: ActionContext): number[] {
  const ids = ctx.params
    .list('item_group_ids')
    .map((v) => (/^\d+$/.test(v) ? Number(v) : 0))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  const single = ctx.params.int('item_group_id');
  if (!ids.length && single > 0) ids.push(single);
  return [...new Set(ids)];
}

/** An optional string parameter: undefined when absent, so updates touch only what was sent. */
export function optionalStr(ctx: ActionContext, name: string): string | undefined {
  return ctx.params.has(name) ? ctx.params.str(name) : undefined;
}

export function optionalBool(ctx: ActionContext, name: string): boolean | undefined {
  return ctx.params.has(name) ? ctx.params.bool(name) : undefined;
}
