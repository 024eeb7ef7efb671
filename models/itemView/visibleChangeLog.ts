/**
 * `item/getChangeLog` as a reader may see it: editors read the item's log, but a row naming a
 * page or catalog is shown only when the reader could open that page or catalog — the same
 * catalog restriction every other surface applies, and no one else's draft titles. Rows about
 * things since deleted for good are kept for unrestricted readers only (their catalog is unknown).
 */
import {
  requireAction,
  type Actor,
  catalogParents,
  catalogVisible,
  type ItemAccess,
} from '../access';
import { type ItemChangeLogDoc, listChangeLog } from '../items';
import { Page, type PageDoc, pageVisible } from '../pages';

async function visibleRows(
  actor: Actor,
  access: ItemAccess,
  rows: ItemChangeLogDoc[],
): Promise<ItemChangeLogDoc[]> {
  const pageIds = [
    ...new Set(rows.filter((r) => r.op_object_type === 'page').map((r) => r.op_object_id)),
  ];
  const pages = await Page.find(
    { page_id: { $in: pageIds } },
    { page_id: 1, cat_id: 1, is_draft: 1, author_uid: 1, _id: 0 },
  ).lean<Pick<PageDoc, 'page_id' | 'cat_id' | 'is_draft' | 'author_uid'>[]>();
  const seen = new Map<number, boolean>();
  for (const page of pages) seen.set(page.page_id, await pageVisible(actor, access, page));
  const restricted = access.catalogRestriction !== null;
  const parents = restricted ? await catalogParents(access.item.item_id) : new Map();
  return rows.filter((row) => {
    switch (row.op_object_type) {
      case 'page':
        return seen.get(row.op_object_id) ?? !restricted;
      case 'catalog':
        return parents.has(row.op_object_id) || !restricted
          ? catalogVisible(access, row.op_object_id, parents)
          : false;
      case 'tree':
        return !restricted; // a tree move names catalogs across the whole item
      default:
        return true;
    }
  });
}

export async function visibleChangeLog(
  actor: Actor,
  itemId: number,
  page: number,
  count: number,
): Promise<Awaited<ReturnType<typeof listChangeLog>>> {
  const access = await requireAction(actor, 'item.readChangeLog', itemId);
  return listChangeLog(itemId, page, count, (rows) => visibleRows(actor, access, rows));
}
