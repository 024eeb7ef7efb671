/**
 * `catalog/copy` (reference pages §4.4): copy or move a catalog with everything below it, within
 * an item or to another item the user may edit.
 *
 * Unlike ShowDoc: the new parent must be a catalog of the target item, a catalog cannot go into
 * itself or its own subtree, the result must stay within three levels, the target's catalog quota
 * holds, the copy is written in one transaction, and a move inside one item is a plain re-parent
 * (pages keep their ids, history and links). A move to another item copies, then sends the source
 * pages to the recycle bin (recoverable) and removes the source catalogs.
 */
import { requireAction, type Actor, type ItemAccess } from '../access';
import {
  applyTreePlan,
  asApiError,
  catalogRow,
  insideRestriction,
  itemCatalogs,
  levelsOf,
  MAX_CATALOGS_PER_ITEM,
  parentMap,
  removeSubtree,
  type CatalogRow,
} from './catalogs';
import { planTreeUpdate, subtreeHeight, subtreeOf } from './catalogTree';
import { errors, events, nextId, nowSeconds, connection } from '../platform';
import { Catalog, MAX_LEVEL, TOP_LEVEL, type CatalogDoc } from './schemas/catalog';
import { Page, type PageDoc } from '../pages';

const OUTSIDE_RESTRICTION =
  'You may only change catalogs inside the catalogs you were given access to';

export interface CopyCatalogInput {
  catId: number;
  /** New parent in the target item; 0 = top level ('/' in the client). */
  newParentCatId: number;
  /** Target item; 0 = the catalog's own item. */
  toItemId: number;
  /** true = move (the source goes away), false = copy. */
  move: boolean;
}

function editAccess(actor: Actor, itemId: number): Promise<ItemAccess> {
  return requireAction(actor, 'catalog.update', itemId);
}

/** Copies or moves; returns the (new) root catalog row. */
export async function copyCatalog(actor: Actor, input: CopyCatalogInput): Promise<CatalogRow> {
  if (!(input.catId > 0)) throw errors.failed('Parameter error: cat_id');
  if (input.newParentCatId < 0 || input.toItemId < 0) throw errors.failed('Parameter error');
  const source = await Catalog.findOne({ cat_id: input.catId }, { _id: 0 }).lean<CatalogDoc>();
  if (!source) throw errors.failed('Catalog does not exist');
  const sourceAccess = await editAccess(actor, source.item_id);
  const targetItemId = input.toItemId > 0 ? input.toItemId : source.item_id;
  const sameItem = targetItemId === source.item_id;
  const targetAccess = sameItem ? sourceAccess : await editAccess(actor, targetItemId);

  const sourceCatalogs = await itemCatalogs(source.item_id);
  const targetCatalogs = sameItem ? sourceCatalogs : await itemCatalogs(targetItemId);
  if (!insideRestriction(sourceAccess, source.cat_id, parentMap(sourceCatalogs)))
    throw errors.noPermission(OUTSIDE_RESTRICTION);
  if (input.move && sourceAccess.catalogRestriction?.includes(source.cat_id))
    throw errors.noPermission(OUTSIDE_RESTRICTION);

  const parentId = input.newParentCatId;
  if (parentId > 0 && !targetCatalogs.some((c) => c.cat_id === parentId))
    throw errors.failed('The target catalog does not exist in the target item');
  if (!insideRestriction(targetAccess, parentId, parentMap(targetCatalogs)))
    throw errors.noPermission(OUTSIDE_RESTRICTION);
  const subtree = subtreeOf(source.cat_id, sourceCatalogs);
  if (sameItem && subtree.includes(parentId))
    throw errors.failed('A catalog cannot be copied or moved into itself');
  const rootLevel = parentId > 0 ? levelsOf(targetCatalogs).get(parentId)! + 1 : TOP_LEVEL;
  if (rootLevel + subtreeHeight(source.cat_id, sourceCatalogs) > MAX_LEVEL)
    throw errors.failed(`Catalogs can be nested at most ${MAX_LEVEL - TOP_LEVEL + 1} levels deep`);

  if (input.move && sameItem) return moveWithinItem(actor, sourceAccess, source, parentId);

  if (targetCatalogs.length + subtree.length > MAX_CATALOGS_PER_ITEM)
    throw errors.refused(`An item can hold at most ${MAX_CATALOGS_PER_ITEM} catalogs`);
  const root = await copySubtree(actor, source, subtree, targetItemId, parentId, rootLevel);
  events.publish('menu.changed', { itemId: targetItemId, byUid: actor.uid });

  if (input.move) {
    const { pageIds } = await removeSubtree(actor, sourceAccess, source);
    for (const pageId of pageIds)
      events.publish('page.deleted', { itemId: source.item_id, pageId, byUid: actor.uid });
    events.publish('menu.changed', { itemId: source.item_id, byUid: actor.uid });
  }
  return catalogRow(root);
}

async function moveWithinItem(
  actor: Actor,
  access: ItemAccess,
  source: CatalogDoc,
  parentId: number,
): Promise<CatalogRow> {
  const itemId = source.item_id;
  await connection()
    .transaction(async (session) => {
      const catalogs = await itemCatalogs(itemId, session);
      const node = {
        cat_id: source.cat_id,
        page_id: 0,
        cat_name: '',
        parent_cat_id: parentId,
        level: 0,
        s_number: 0,
      };
      await applyTreePlan(
        itemId,
        planTreeUpdate({ catalogs, pages: [] }, [node], { restriction: access.catalogRestriction }),
        session,
      );
    })
    .catch((error) => {
      throw asApiError(error);
    });
  events.publish('menu.changed', { itemId, byUid: actor.uid });
  const moved = await Catalog.findOne({ cat_id: source.cat_id }, { _id: 0 }).lean<CatalogDoc>();
  return catalogRow(moved ?? source);
}

/** Inserts copies of the subtree's catalogs and live pages under `parentId` in one transaction. */
async function copySubtree(
  actor: Actor,
  source: CatalogDoc,
  subtree: number[],
  targetItemId: number,
  parentId: number,
  rootLevel: number,
): Promise<CatalogDoc> {
  return connection().transaction(async (session) => {
    const catalogs = (await itemCatalogs(source.item_id, session)).filter((c) =>
      subtree.includes(c.cat_id),
    );
    const pages = await Page.find(
      { item_id: source.item_id, cat_id: { $in: subtree }, is_del: 0 },
      { _id: 0 },
      { session },
    ).lean<PageDoc[]>();
    const now = nowSeconds();
    const newIds = new Map<number, number>();
    const levels = new Map<number, number>([[source.cat_id, rootLevel]]);
    const copies: CatalogDoc[] = [];
    // Parents before children: walk from the root, breadth first.
    const queue = [source.cat_id];
    while (queue.length) {
      const id = queue.shift()!;
      const cat = catalogs.find((c) => c.cat_id === id);
      if (!cat) continue;
      const newId = await nextId('cat_id');
      newIds.set(id, newId);
      const isRoot = id === source.cat_id;
      copies.push({
        cat_id: newId,
        cat_name: cat.cat_name,
        item_id: targetItemId,
        s_number: cat.s_number,
        addtime: now,
        parent_cat_id: isRoot ? parentId : newIds.get(cat.parent_cat_id)!,
        level: levels.get(id)!,
      });
      for (const child of catalogs) {
        if (child.parent_cat_id === id && !newIds.has(child.cat_id)) {
          levels.set(child.cat_id, levels.get(id)! + 1);
          queue.push(child.cat_id);
        }
      }
    }
    if (!copies.length) throw errors.failed('Catalog does not exist');
    await Catalog.insertMany(copies, { session });
    const pageCopies = [];
    for (const page of pages) {
      pageCopies.push({
        page_id: await nextId('page_id'),
        item_id: targetItemId,
        cat_id: newIds.get(page.cat_id)!,
        page_title: page.page_title,
        page_content: page.page_content,
        page_comments: page.page_comments ?? '',
        s_number: page.s_number,
        addtime: now,
        page_addtime: now,
        // A draft stays its author's (a copy must not publish someone else's unfinished page).
        author_uid: page.is_draft ? page.author_uid : actor.uid,
        author_username: page.is_draft ? page.author_username : actor.username,
        is_del: 0,
        ext_info: page.ext_info ?? '',
        is_draft: page.is_draft ?? 0,
        page_custom_id: '',
      });
    }
    if (pageCopies.length) await Page.insertMany(pageCopies, { session });
    return copies[0];
  });
}
