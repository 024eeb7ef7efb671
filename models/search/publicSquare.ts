/**
 * ShowDoc's public square (`publicSquare/*`): a directory of the site's public items, switched on
 * by an admin (`enable_public_square`, off by default). A public item is one its owner left open:
 * no visit password (ShowDoc's rule). Nothing else is ever listed — an item with a password, a
 * deleted one — and what is answered is what ShowDoc answers: the item's name, description, type,
 * times and address, never its members or pages.
 *
 * Search as ShowDoc's: `search_type=title` (default) matches the name or description, `content`
 * the items' page contents (through the search index, so a whiteboard matches on its texts; draft
 * pages are not searched).
 */
import type { Actor } from '../access';
import { Item, type ItemDoc } from '../items';
import { errors, formatUnix } from '../platform';
import { getSiteSettings } from '../settings';
import { escapeRegExp, findMatchingPages } from './search';

/** Largest page of results one call returns. */
export const MAX_SQUARE_COUNT = 100;

export interface PublicSquareQuery {
  page: number;
  count: number;
  keyword: string;
  searchType: string;
}

export interface PublicSquareItem {
  item_id: number;
  item_name: string;
  item_description: string;
  item_type: string;
  addtime: string;
  last_update_time: string;
  item_domain: string;
}

const PUBLIC = { password: '', is_del: 0 };

export async function publicSquareState(): Promise<{ enable: 0 | 1 }> {
  return { enable: (await getSiteSettings()).enablePublicSquare ? 1 : 0 };
}

async function matchingItemIds(keyword: string, searchType: string): Promise<number[] | null> {
  if (!keyword) return null;
  if (searchType === 'content') {
    const open = await Item.find(PUBLIC, { item_id: 1, _id: 0 }).lean<{ item_id: number }[]>();
    const pages = await findMatchingPages(
      open.map((row) => row.item_id),
      keyword,
    );
    return [...new Set(pages.filter((p) => p.is_draft !== 1).map((p) => p.item_id))];
  }
  const pattern = { $regex: escapeRegExp(keyword), $options: 'i' };
  const rows = await Item.find(
    { ...PUBLIC, $or: [{ item_name: pattern }, { item_description: pattern }] },
    { item_id: 1, _id: 0 },
  ).lean<{ item_id: number }[]>();
  return rows.map((row) => row.item_id);
}

export async function publicSquareItems(
  actor: Actor,
  query: PublicSquareQuery,
): Promise<{ total: number; items: PublicSquareItem[] }> {
  const settings = await getSiteSettings();
  if (!settings.enablePublicSquare) throw errors.pageNotFound('The public square is not enabled');
  if (settings.forceLogin && !(actor.uid > 0)) throw errors.notLoggedIn();
  const page = Math.max(1, query.page || 1);
  const count = Math.min(MAX_SQUARE_COUNT, Math.max(1, query.count || 20));
  const keyword = query.keyword.trim();
  const ids = await matchingItemIds(keyword, query.searchType);
  if (ids && !ids.length) return { total: 0, items: [] };
  const filter = ids ? { ...PUBLIC, item_id: { $in: ids } } : PUBLIC;
  const total = await Item.countDocuments(filter);
  const rows = await Item.find(filter, { _id: 0 })
    .sort({ last_update_time: -1, item_id: -1 })
    .skip((page - 1) * count)
    .limit(count)
    .lean<ItemDoc[]>();
  return {
    total,
    items: rows.map((item) => ({
      item_id: item.item_id,
      item_name: item.item_name,
      item_description: item.item_description ?? '',
      item_type: String(item.item_type || 1),
      addtime: formatUnix(item.addtime),
      last_update_time: formatUnix(item.last_update_time || item.addtime),
      item_domain: item.item_domain || String(item.item_id),
    })),
  };
}
