/**
 * Parameters several item actions share: the groups an item goes in (`item_group_ids` as an
 * array, JSON array or comma list; or the older single `item_group_id`).
 */

export interface GroupIdsInput {
  item_group_ids: string[];
  item_group_id: number;
}

export function groupIds(input: GroupIdsInput): number[] {
  const ids = input.item_group_ids
    .map((v) => (/^\d+$/.test(v) ? Number(v) : 0))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  if (!ids.length && input.item_group_id > 0) ids.push(input.item_group_id);
  return [...new Set(ids)];
}
