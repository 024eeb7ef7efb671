/**
 * Copying an item (`item/add` with `copy_item_id`, reference accounts §9.3): a new item owned by
 * the caller with the source's catalog tree and live, non-draft pages (new ids, the caller as
 * author). Members, teams, groups, keys and history are not copied.
 *
 * Quire copies only what the caller can see: a member restricted to some catalogs gets those
 * catalogs and nothing at the root (ShowDoc copied the whole item, leaking hidden pages).
 *
 * It lives with the catalogs (like catalogCopy.ts) because a copy is the catalog tree with its
 * pages: the items domain, below pages and catalogs, only creates the new item.
 */
import { requireAction, catalogVisible, type Actor } from '../access';
import { nextId, events } from '../platform';
import { addItemToGroups, insertItem, type NewItemInput } from '../items';
import { Page, type PageDoc } from '../pages';
import { Catalog, type CatalogDoc } from './schemas/catalog';

export async function copyItem(
  actor: Actor,
  sourceId: number,
  input: Partial<NewItemInput>,
  options: { itemPassword?: string } = {},
): Promise<{ item_id: number }> {
  const access = await requireAction(actor, 'item.copy', sourceId, options);
  const source = access.item;
  const item = await insertItem(actor, {
    item_name: input.item_name?.trim() ? input.item_name : source.item_name,
    item_description: input.item_description?.trim()
      ? input.item_description
      : source.item_description,
    password: input.password ?? '',
    passwordHash: source.password,
    item_domain: input.item_domain ?? '',
    item_type: source.item_type || 1,
    allow_comment: source.allow_comment === 1,
    allow_feedback: source.allow_feedback === 1,
  });

  const catalogs = await Catalog.find({ item_id: sourceId }, { _id: 0 })
    .sort({ level: 1, s_number: 1, cat_id: 1 })
    .lean<CatalogDoc[]>();
  const parents = new Map(
    catalogs.map((c) => [c.cat_id, { parent_cat_id: c.parent_cat_id, level: c.level }]),
  );
  const newIds = new Map<number, number>();
  const newCatalogs: CatalogDoc[] = [];
  for (const cat of catalogs) {
    if (!catalogVisible(access, cat.cat_id, parents)) continue;
    // A child whose parent was not copied (missing or hidden) is left out with its pages.
    if (cat.parent_cat_id > 0 && !newIds.has(cat.parent_cat_id)) continue;
    const id = await nextId('cat_id');
    newIds.set(cat.cat_id, id);
    newCatalogs.push({
      ...cat,
      cat_id: id,
      item_id: item.item_id,
      parent_cat_id: cat.parent_cat_id > 0 ? (newIds.get(cat.parent_cat_id) as number) : 0,
      addtime: item.addtime,
    });
  }
  if (newCatalogs.length) await Catalog.insertMany(newCatalogs);

  const pages = await Page.find({ item_id: sourceId, is_del: 0, is_draft: { $ne: 1 } }, { _id: 0 })
    .sort({ page_id: 1 })
    .lean<PageDoc[]>();
  const newPages: PageDoc[] = [];
  // The copy has no draft and no versions yet: the source page's draft flag and version
  // sequence stay behind, and the copy's sequence starts at 0 as a new page's does.
  for (const { has_draft: _draft, history_seq: _seq, history_low: _low, ...page } of pages) {
    const catId =
      page.cat_id > 0 ? newIds.get(page.cat_id) : access.catalogRestriction ? undefined : 0;
    if (catId === undefined) continue;
    newPages.push({
      ...page,
      page_id: await nextId('page_id'),
      item_id: item.item_id,
      cat_id: catId,
      addtime: item.addtime,
      page_addtime: item.addtime,
      author_uid: actor.uid,
      author_username: actor.username,
      page_custom_id: page.page_custom_id ?? '',
      history_seq: 0,
    });
  }
  if (newPages.length) await Page.insertMany(newPages);

  await addItemToGroups(actor, item.item_id, input.group_ids ?? []);
  events.publish('item.changed', { itemId: item.item_id, change: 'created', byUid: actor.uid });
  return { item_id: item.item_id };
}
