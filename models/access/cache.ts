/**
 * The access read model: live items by id, each (item, user)'s member rows and each item's
 * catalog tree, kept in memory so an access check costs no database round trip (the policy that
 * reads them is policy.ts). An item's entries go on `item.changed` and `membership.changed`
 * (every write of items, member and team rows publishes one), and on `page.saved` /
 * `page.deleted` (they touch the item's `last_update_time`) — in this process before the write
 * answers, in the others as the bus relays the event.
 */
import { type DomainEvents, perContext, ReadCache } from '../platform';
import {
  catalogSource,
  type ItemDoc,
  liveItemSource,
  MEMBER_ADMIN,
  MEMBER_EDIT,
  membershipSource,
  TOP_LEVEL,
} from './sources';

// What the rest of access reads of the rows it keeps (the rows come through the ports in
// sources.ts; policy.ts and itemPasswords.ts read them through here).
export { type ItemDoc, MEMBER_ADMIN, MEMBER_EDIT, TOP_LEVEL };

/** Items kept (a few KB each at most). */
export const MAX_CACHED_ITEMS = 5_000;
/** (item, user) member rows kept. */
export const MAX_CACHED_MEMBERSHIPS = 50_000;

/** An (item, user)'s member rows: what the policy needs of membership. */
export interface MemberRows {
  personal: { member_group_id: number; cat_id?: number; cat_ids?: number[] } | null;
  teams: Array<{ member_group_id: number; cat_id?: number; cat_ids?: number[] }>;
}

const accessCaches = perContext((context) => {
  // Deleted or missing items are not kept: creating or restoring one needs no event to be seen.
  const items = new ReadCache<number, ItemDoc | null>({
    maxEntries: MAX_CACHED_ITEMS,
    keep: (item) => item !== null,
  });
  const members = new ReadCache<string, MemberRows>({ maxEntries: MAX_CACHED_MEMBERSHIPS });
  // Catalog trees change only with `menu.changed` (every catalog write publishes it).
  const catalogs = new ReadCache<number, CatalogParents>({ maxEntries: MAX_CACHED_ITEMS });
  const dropCatalogs = ({ itemId }: { itemId: number }) => catalogs.drop(itemId);
  context.bus.subscribe('menu.changed', dropCatalogs, { synchronous: true });
  context.bus.subscribe('item.changed', dropCatalogs, { synchronous: true });
  const dropItem = ({ itemId }: { itemId: number }) => {
    items.drop(itemId);
    const prefix = `${itemId}:`;
    members.dropWhere((key) => key.startsWith(prefix));
  };
  const touched = ({ itemId }: { itemId: number }) => items.drop(itemId);
  // A save moves the item's last_update_time forward (`$max`): the kept item is patched, not
  // reloaded, so a stream of saves does not re-read the item for every request.
  const saved = ({ itemId, at }: DomainEvents['page.saved']) => {
    if (at === undefined) return items.drop(itemId);
    // No reused answer (page/info, item/info) shows the item's time: a save elsewhere in the item
    // leaves them good (api/answerCache.ts).
    items.patch(
      itemId,
      (item) => item && { ...item, last_update_time: Math.max(item.last_update_time ?? 0, at) },
      { sameAnswers: true },
    );
  };
  context.bus.subscribe('item.changed', dropItem, { synchronous: true });
  context.bus.subscribe('membership.changed', dropItem, { synchronous: true });
  context.bus.subscribe('page.saved', saved, { synchronous: true });
  context.bus.subscribe('page.deleted', touched, { synchronous: true });
  return { items, members, catalogs };
});

function loadItem(by: { item_id: number } | { item_domain: string }): Promise<ItemDoc | null> {
  return liveItemSource.use().findLiveItem(by);
}

function loadMemberRows(itemId: number, uid: number): Promise<MemberRows> {
  return membershipSource.use().rowsOf(itemId, uid);
}

/** Resolves an item by numeric id or custom domain; deleted items are not found. */
export async function findLiveItem(idOrDomain: number | string): Promise<ItemDoc | null> {
  const asNumber =
    typeof idOrDomain === 'number'
      ? idOrDomain
      : /^\d+$/.test(idOrDomain)
        ? Number(idOrDomain)
        : NaN;
  if (Number.isSafeInteger(asNumber) && asNumber > 0)
    return accessCaches().items.get(asNumber, () => loadItem({ item_id: asNumber }));
  if (typeof idOrDomain === 'string' && idOrDomain) return loadItem({ item_domain: idOrDomain });
  return null;
}

/** The actor's member rows of one item (kept). */
export function memberRowsOf(itemId: number, uid: number): Promise<MemberRows> {
  return accessCaches().members.get(memberKey(itemId, uid), () => loadMemberRows(itemId, uid));
}

/** Member rows of many users of one item, by `memberKey`: those not kept in one query per table. */
export function memberRowsOfMany(itemId: number, uids: number[]): Promise<Map<string, MemberRows>> {
  return accessCaches().members.getMany(
    uids.map((uid) => memberKey(itemId, uid)),
    (missing) => loadManyMemberRows(itemId, missing),
  );
}

export const NO_MEMBER_ROWS: MemberRows = { personal: null, teams: [] };
export const memberKey = (itemId: number, uid: number) => `${itemId}:${uid}`;

/** Member rows of these `item:uid` keys, each key answered (no row: not a member). */
async function loadManyMemberRows(
  itemId: number,
  keys: string[],
): Promise<Map<string, MemberRows>> {
  const uids = keys.map((key) => Number(key.slice(key.indexOf(':') + 1)));
  const { personal, teams } = await membershipSource.use().rowsOfMany(itemId, uids);
  const byUid = new Map<number, MemberRows>(
    uids.map((uid) => [uid, { personal: null, teams: [] }]),
  );
  const granted = (row: { member_group_id: number; cat_id?: number; cat_ids?: number[] }) => ({
    member_group_id: row.member_group_id,
    cat_id: row.cat_id,
    cat_ids: row.cat_ids,
  });
  for (const row of personal) {
    const rows = byUid.get(row.uid);
    if (rows && !rows.personal) rows.personal = granted(row);
  }
  for (const row of teams) byUid.get(row.member_uid)?.teams.push(granted(row));
  return new Map(uids.map((uid) => [memberKey(itemId, uid), byUid.get(uid)!]));
}

export type CatalogParents = ReadonlyMap<number, { parent_cat_id: number; level: number }>;

/**
 * The item's catalogs as a parent map (read model; one indexed query when not in memory), for
 * restriction checks in bulk and for "is this a catalog of the item". Do not change it.
 */
export function catalogParents(itemId: number): Promise<CatalogParents> {
  return accessCaches().catalogs.get(itemId, async () => {
    const rows = await catalogSource.use().parentRows(itemId);
    return new Map(
      rows.map((r) => [
        r.cat_id,
        Object.freeze({ parent_cat_id: r.parent_cat_id, level: r.level }),
      ]),
    );
  });
}
