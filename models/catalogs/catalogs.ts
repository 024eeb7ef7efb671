/**
 * Catalog use cases (reference pages §4): listing an item's catalogs, the pages of one catalog,
 * creating/renaming/re-parenting one catalog, deleting a subtree, and saving a dragged tree.
 * Copying and moving subtrees live in models/catalogCopy.ts.
 *
 * Quire's rules where ShowDoc was weak (pages §15.12): every parent must be a catalog of the same
 * item, no cycles, at most three levels (2–4) — checked on the whole resulting tree by
 * models/catalogTree.ts — and multi-row changes are applied in one transaction, so a refused or
 * failed request changes nothing. Deleted catalogs' pages go to the recycle bin (recoverable).
 *
 * Permissions: reads need visit (10103), writes need edit (10103). A member restricted to some
 * top-level catalogs sees and changes only what lies inside them; the granted catalogs themselves
 * may be renamed and reordered but not moved or deleted.
 */
import { type ClientSession } from 'mongoose';
import { requireAction, type Actor, type ItemAccess } from '../access';
import {
  computeLevels,
  MAX_CATALOG_NAME,
  planTreeUpdate,
  subtreeOf,
  topOf,
  TreeError,
  type TreeCatalog,
  type TreeNode,
  type TreePlan,
} from './catalogTree';
import { logChange } from '../items';
import { ApiError, errors, events, formatUnix, nextId, nowSeconds, connection } from '../platform';
import { moveToRecycleBin, Page, type PageDoc } from '../pages';
import { Catalog, MAX_LEVEL, TOP_LEVEL, type CatalogDoc } from './schemas/catalog';

/** Catalogs per item (ShowDoc's quota; creating more answers 10100). */
export const MAX_CATALOGS_PER_ITEM = 1500;

const OUTSIDE_RESTRICTION =
  'You may only change catalogs inside the catalogs you were given access to';
const TOO_DEEP = `Catalogs can be nested at most ${MAX_LEVEL - TOP_LEVEL + 1} levels deep`;

/** A catalog row as ShowDoc serves it (every column a string). */
export interface CatalogRow {
  cat_id: string;
  cat_name: string;
  item_id: string;
  s_number: string;
  addtime: string;
  parent_cat_id: string;
  level: string;
}

export function catalogRow(cat: CatalogDoc, options: { formatTime?: boolean } = {}): CatalogRow {
  return {
    cat_id: String(cat.cat_id),
    cat_name: cat.cat_name,
    item_id: String(cat.item_id),
    s_number: String(cat.s_number),
    addtime: options.formatTime ? formatUnix(cat.addtime) : String(cat.addtime),
    parent_cat_id: String(cat.parent_cat_id),
    level: String(cat.level),
  };
}

/** ShowDoc's order everywhere: `s_number`, then `cat_id`. */
export function byOrder<T extends { s_number: number }>(idOf: (row: T) => number) {
  return (a: T, b: T) => a.s_number - b.s_number || idOf(a) - idOf(b);
}

/** The item's catalogs in menu order (one indexed query). */
export async function itemCatalogs(itemId: number, session?: ClientSession): Promise<CatalogDoc[]> {
  // No session given: leave the option out, so an enclosing transaction's session applies.
  const rows = await Catalog.find({ item_id: itemId }, { _id: 0 }, session ? { session } : {}).lean<
    CatalogDoc[]
  >();
  return rows.sort(byOrder((c) => c.cat_id));
}

export function parentMap(
  catalogs: Pick<CatalogDoc, 'cat_id' | 'parent_cat_id'>[],
): Map<number, number> {
  return new Map(catalogs.map((c) => [c.cat_id, c.parent_cat_id]));
}

/** Whether catalog `catId` lies inside the access's catalog restriction (always, when none). */
export function insideRestriction(
  access: ItemAccess,
  catId: number,
  parents: Map<number, number>,
): boolean {
  if (!access.catalogRestriction) return true;
  return catId > 0 && access.catalogRestriction.includes(topOf(catId, parents));
}

function editAccess(actor: Actor, itemId: number): Promise<ItemAccess> {
  return requireAction(actor, 'catalog.update', itemId);
}

/** Tree errors become ShowDoc's generic failure (or its catalog "no permission") with the reason. */
export function asApiError(error: unknown): unknown {
  if (!(error instanceof TreeError)) return error;
  return new ApiError(error.kind === 'forbidden' ? 10103 : 10101, error.message);
}

export function checkCatalogName(raw: string): string {
  const name = raw.trim();
  if (!name) throw errors.failed('Catalog name is required');
  if (name.length > MAX_CATALOG_NAME)
    throw errors.failed(`Catalog names may be at most ${MAX_CATALOG_NAME} characters`);
  return name;
}

// ── reads ─────────────────────────────────────────────────────────────────────────────────────

export type CatalogListShape = 'flat' | 'group' | 'names';
export type CatalogGroupRow = CatalogRow & { sub: CatalogGroupRow[] };

/**
 * `catList` (flat), `catListGroup` (tree, children under `sub`) and `catListName` (pre-order,
 * names as slash paths). Restricted members get only what is inside their catalogs.
 */
export async function listCatalogs(
  actor: Actor,
  itemId: number,
  shape: CatalogListShape,
  itemPassword = '',
): Promise<CatalogRow[] | CatalogGroupRow[]> {
  const access = await requireAction(actor, 'catalog.read', itemId, { itemPassword });
  const all = await itemCatalogs(itemId);
  const parents = parentMap(all);
  const visible = all.filter((c) => insideRestriction(access, c.cat_id, parents));
  if (shape === 'flat') return visible.map((c) => catalogRow(c, { formatTime: true }));

  const children = new Map<number, CatalogDoc[]>();
  const ids = new Set(visible.map((c) => c.cat_id));
  for (const c of visible) {
    const parent = ids.has(c.parent_cat_id) ? c.parent_cat_id : 0;
    const list = children.get(parent);
    if (list) list.push(c);
    else children.set(parent, [c]);
  }
  const seen = new Set<number>();
  const group = (parent: number): CatalogGroupRow[] =>
    (children.get(parent) ?? [])
      .filter((c) => !seen.has(c.cat_id) && seen.add(c.cat_id))
      .map((c) => ({ ...catalogRow(c, { formatTime: true }), sub: group(c.cat_id) }));
  const tree = group(0);
  if (shape === 'group') return tree;

  const flat: CatalogRow[] = [];
  const walk = (rows: CatalogGroupRow[], prefix: string) => {
    for (const { sub, ...row } of rows) {
      const path = prefix ? `${prefix}/${row.cat_name}` : row.cat_name;
      flat.push({ ...row, cat_name: path });
      walk(sub, path);
    }
  };
  walk(tree, '');
  return flat;
}

/** `getPagesBycat`: the pages of one catalog (editors; drafts only their author's). */
export async function pagesOfCatalog(
  actor: Actor,
  itemId: number,
  catId: number,
): Promise<{ page_id: string; page_title: string; s_number: string }[]> {
  const access = await editAccess(actor, itemId);
  const all = await itemCatalogs(itemId);
  if (!all.some((c) => c.cat_id === catId)) throw errors.failed('Catalog does not exist');
  if (!insideRestriction(access, catId, parentMap(all)))
    throw errors.noPermission(OUTSIDE_RESTRICTION);
  const pages = await Page.find(
    { item_id: itemId, cat_id: catId, is_del: 0 },
    { page_id: 1, page_title: 1, s_number: 1, is_draft: 1, author_uid: 1, _id: 0 },
  ).lean<PageDoc[]>();
  return pages
    .filter((p) => !p.is_draft || p.author_uid === actor.uid)
    .sort(byOrder((p) => p.page_id))
    .map((p) => ({
      page_id: String(p.page_id),
      page_title: p.page_title,
      s_number: String(p.s_number),
    }));
}

// ── writes ────────────────────────────────────────────────────────────────────────────────────

/** Applies a tree plan inside a transaction session. */
export async function applyTreePlan(
  itemId: number,
  plan: TreePlan,
  session: ClientSession,
): Promise<void> {
  if (plan.catalogs.length)
    await Catalog.bulkWrite(
      plan.catalogs.map((c) => ({
        updateOne: { filter: { cat_id: c.cat_id, item_id: itemId }, update: { $set: c.set } },
      })),
      { session, ordered: true },
    );
  if (plan.pages.length)
    await Page.bulkWrite(
      plan.pages.map((p) => ({
        updateOne: {
          filter: { page_id: p.page_id, item_id: itemId, is_del: 0 },
          update: { $set: p.set },
        },
      })),
      { session, ordered: true },
    );
}

/** The item's live pages as tree nodes (no content). */
export async function itemTreePages(itemId: number, session?: ClientSession) {
  return Page.find(
    { item_id: itemId, is_del: 0 },
    { page_id: 1, cat_id: 1, s_number: 1, _id: 0 },
    session ? { session } : {},
  ).lean<Pick<PageDoc, 'page_id' | 'cat_id' | 's_number'>[]>();
}

export interface SaveCatalogInput {
  itemId: number;
  catId: number;
  catName: string;
  /** New parent (0 = top level); undefined on an update keeps the current parent. */
  parentCatId?: number;
  sNumber: number;
}

/** `catalog/save`: creates (catId 0) or renames / re-parents / reorders one catalog. Returns its id. */
export async function saveCatalog(actor: Actor, input: SaveCatalogInput): Promise<number> {
  const name = checkCatalogName(input.catName);
  const parentCatId = input.parentCatId ?? (input.catId > 0 ? undefined : 0);
  if (parentCatId !== undefined && parentCatId < 0)
    throw errors.failed('Parent catalog does not exist');
  if (input.catId > 0 && parentCatId === input.catId)
    throw errors.failed('A catalog cannot be its own parent');
  if (!(input.itemId > 0)) throw errors.failed('Parameter error: item_id');
  const access = await editAccess(actor, input.itemId);
  const itemId = input.itemId;

  if (input.catId > 0) {
    const plan = await connection()
      .transaction(async (session) => {
        const catalogs = await itemCatalogs(itemId, session);
        const before = catalogs.find((c) => c.cat_id === input.catId);
        if (!before) throw errors.failed('Catalog does not exist in this item');
        const node: TreeNode = {
          cat_id: input.catId,
          page_id: 0,
          cat_name: name,
          parent_cat_id: parentCatId ?? before.parent_cat_id,
          level: 0,
          s_number: input.sNumber > 0 ? input.sNumber : 0,
        };
        // Only catalogs move here, so the pages need not be loaded (or copied by the transaction).
        const plan = planTreeUpdate({ catalogs, pages: [] }, [node], {
          restriction: access.catalogRestriction,
        });
        await applyTreePlan(itemId, plan, session);
        return plan;
      })
      .catch((error) => {
        throw asApiError(error);
      });
    if (plan.catalogs.length) {
      await logChange({
        uid: actor.uid,
        itemId,
        action: 'update',
        object: 'catalog',
        objectId: input.catId,
        objectName: name,
      });
      events.publish('menu.changed', { itemId, byUid: actor.uid });
    }
    return input.catId;
  }

  const catalogs = await itemCatalogs(itemId);
  if (catalogs.length >= MAX_CATALOGS_PER_ITEM)
    throw errors.refused(`An item can hold at most ${MAX_CATALOGS_PER_ITEM} catalogs`);
  const parent = parentCatId ?? 0;
  let level = TOP_LEVEL;
  if (parent > 0) {
    if (!catalogs.some((c) => c.cat_id === parent))
      throw errors.failed('Parent catalog does not exist in this item');
    level = levelsOf(catalogs).get(parent)! + 1;
    if (level > MAX_LEVEL) throw errors.failed(TOO_DEEP);
  }
  if (!insideRestriction(access, parent, parentMap(catalogs)))
    throw errors.noPermission(OUTSIDE_RESTRICTION);
  const catId = await nextId('cat_id');
  await Catalog.create({
    cat_id: catId,
    cat_name: name,
    item_id: itemId,
    s_number: input.sNumber > 0 ? input.sNumber : 99,
    addtime: nowSeconds(),
    parent_cat_id: parent,
    level,
  });
  await logChange({
    uid: actor.uid,
    itemId,
    action: 'create',
    object: 'catalog',
    objectId: catId,
    objectName: name,
  });
  events.publish('menu.changed', { itemId, byUid: actor.uid });
  return catId;
}

/** Levels from the parent links (stored levels of migrated rows may be off). */
export function levelsOf(catalogs: TreeCatalog[]): Map<number, number> {
  try {
    return computeLevels(new Map(catalogs.map((c) => [c.cat_id, c.parent_cat_id])));
  } catch {
    // A cycle in stored data: fall back to the stored levels rather than fail every request.
    return new Map(catalogs.map((c) => [c.cat_id, c.level]));
  }
}

/**
 * `catalog/delete`: removes a catalog with every catalog below it; their pages go to the recycle
 * bin (ShowDoc soft-deleted them without a bin entry, so they could not be recovered).
 */
export async function deleteCatalog(actor: Actor, catId: number): Promise<void> {
  if (!(catId > 0)) throw errors.failed('Parameter error: cat_id');
  const target = await Catalog.findOne({ cat_id: catId }, { _id: 0 }).lean<CatalogDoc>();
  if (!target) throw errors.failed('Catalog does not exist');
  const access = await editAccess(actor, target.item_id);
  const { pageIds } = await removeSubtree(actor, access, target);
  await logChange({
    uid: actor.uid,
    itemId: target.item_id,
    action: 'delete',
    object: 'catalog',
    objectId: catId,
    objectName: target.cat_name,
  });
  for (const pageId of pageIds)
    events.publish('page.deleted', { itemId: target.item_id, pageId, byUid: actor.uid });
  events.publish('menu.changed', { itemId: target.item_id, byUid: actor.uid });
}

/**
 * Deletes `target` and its descendants, sending their live pages to the recycle bin first. Shared
 * by delete and by a move to another item; checks the restriction.
 *
 * Order matters for crash safety: pages go to the bin (each move atomic) before the catalogs are
 * removed (one transaction), so an interruption leaves recoverable pages and intact catalogs,
 * never live pages pointing at missing catalogs. The transaction re-checks for pages saved into
 * the subtree meanwhile and refuses (the caller's retry then bins those too).
 */
export async function removeSubtree(
  actor: Actor,
  access: ItemAccess,
  target: CatalogDoc,
): Promise<{ pageIds: number[] }> {
  const itemId = target.item_id;
  const catalogs = await itemCatalogs(itemId);
  if (!catalogs.some((c) => c.cat_id === target.cat_id))
    throw errors.failed('Catalog does not exist');
  if (
    !insideRestriction(access, target.cat_id, parentMap(catalogs)) ||
    access.catalogRestriction?.includes(target.cat_id)
  )
    throw errors.noPermission(OUTSIDE_RESTRICTION);
  const pageIds: number[] = [];
  for (let attempt = 0; ; attempt++) {
    // Normally one round; another only when pages were saved into the subtree meanwhile.
    const ids = subtreeOf(target.cat_id, await itemCatalogs(itemId));
    const pages = await Page.find(
      { item_id: itemId, cat_id: { $in: ids }, is_del: 0 },
      { page_id: 1, item_id: 1, page_title: 1, _id: 0 },
    ).lean<PageDoc[]>();
    const now = nowSeconds();
    for (const page of pages)
      if (await moveToRecycleBin(actor, page, now)) pageIds.push(page.page_id);
    const done = await connection().transaction(async (session) => {
      const subtree = subtreeOf(target.cat_id, await itemCatalogs(itemId, session));
      const late = await Page.countDocuments(
        { item_id: itemId, cat_id: { $in: subtree }, is_del: 0 },
        { session },
      );
      if (late) {
        if (attempt >= 3)
          throw errors.failed('Pages keep being saved into this catalog; try deleting it again');
        return false;
      }
      await Catalog.deleteMany({ item_id: itemId, cat_id: { $in: subtree } }, { session });
      return true;
    });
    if (done) return { pageIds };
  }
}

export interface DraggedInfo {
  id: number;
  title: string;
  type: string;
}

/** `catalog/batUpdate`: validates the dragged tree as a whole and applies it atomically. */
export async function saveCatalogTree(
  actor: Actor,
  itemId: number,
  nodes: TreeNode[],
  dragged?: DraggedInfo,
): Promise<void> {
  const access = await editAccess(actor, itemId);
  const plan = await connection()
    .transaction(async (session) => {
      // Sequential on purpose: the first command of a transaction starts it, so no parallel reads.
      const catalogs = await itemCatalogs(itemId, session);
      const pages = await itemTreePages(itemId, session);
      const plan = planTreeUpdate({ catalogs, pages }, nodes, {
        restriction: access.catalogRestriction,
      });
      await applyTreePlan(itemId, plan, session);
      return plan;
    })
    .catch((error) => {
      throw asApiError(error);
    });
  if (!plan.catalogs.length && !plan.pages.length) return;
  const title = dragged?.title.trim().slice(0, 200) ?? '';
  const objectName =
    dragged && dragged.id > 0 && title && (dragged.type === 'page' || dragged.type === 'catalog')
      ? `dragged ${dragged.type} «${title}»`
      : 'catalog tree';
  await logChange({
    uid: actor.uid,
    itemId,
    action: 'drag',
    object: 'tree',
    objectId: 0,
    objectName,
  });
  events.publish('menu.changed', { itemId, byUid: actor.uid });
}
