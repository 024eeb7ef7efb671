/**
 * ShowDoc's open API (`open/*`, `item/updateByApi`): scripts authenticate with an item's
 * `api_key` + `api_token` instead of a login. The key stands for the item's owner, so every write
 * goes through the same model functions (savePage, saveCatalog, deletePage, …) with the owner as
 * the actor: permissions, archive rules, history, change log, events and the live-document bridge
 * all apply as for a save from the editor.
 */
import { User } from '../accounts';
import { requireAction, type Actor } from '../access';
import {
  buildMenu,
  Catalog,
  type CatalogDoc,
  deleteCatalog,
  type Menu,
  saveCatalog,
} from '../catalogs';
import { Item, itemIdForApiKey } from '../items';
import { deletePage, Page, type PageDoc, savePage, unescapeFromClient } from '../pages';
import { errors } from '../platform';

/** ShowDoc refuses open-API page creation past this many pages in one item. */
export const MAX_PAGES_PER_ITEM = 5000;
/** ShowDoc's limit on a `cat_name` path. */
const MAX_CAT_PATH = 1000;

export interface KeyHolder {
  itemId: number;
  actor: Actor;
}

/** The item and acting owner for a key pair; 10306 when the pair does not match a live item. */
export async function authenticateApiKey(apiKey: string, apiToken: string): Promise<KeyHolder> {
  const itemId = await itemIdForApiKey(apiKey, apiToken);
  if (!itemId) throw errors.badApiKey('api_key or api_token does not match');
  const item = await Item.findOne({ item_id: itemId }, { uid: 1, _id: 0 }).lean<{ uid: number }>();
  const owner = item
    ? await User.findOne({ uid: item.uid }, { uid: 1, username: 1, _id: 0 }).lean<{
        uid: number;
        username: string;
      }>()
    : null;
  if (!owner) throw errors.badApiKey('api_key or api_token does not match');
  // The owner's rights, never a site admin's: a key must not reach beyond its own item.
  return {
    itemId,
    actor: { uid: owner.uid, username: owner.username, groupid: 0 },
  };
}

/**
 * ShowDoc's `Catalog::saveCatPath`: `a/b/c` → the id of `c`, creating missing catalogs on the way
 * (a leading `/` and empty segments are ignored). 0 for an empty path.
 */
export async function catalogForPath(holder: KeyHolder, path: string): Promise<number> {
  if (!path) return 0;
  if (path.length > MAX_CAT_PATH) throw errors.failed('cat_name is too long');
  return catalogForNames(holder, path.replace(/^\/(?=.)/, '').split('/'));
}

/** The catalog at the end of these names, creating missing ones (blank names are skipped). */
export async function catalogForNames(holder: KeyHolder, names: string[]): Promise<number> {
  let parent = 0;
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const found = await Catalog.findOne(
      { item_id: holder.itemId, parent_cat_id: parent, cat_name: name },
      { cat_id: 1, _id: 0 },
    )
      .sort({ cat_id: 1 })
      .lean<{ cat_id: number }>();
    parent = found
      ? found.cat_id
      : await saveCatalog(holder.actor, {
          itemId: holder.itemId,
          catId: 0,
          catName: name,
          parentCatId: parent,
          sNumber: 0,
        });
  }
  return parent;
}

export interface PageByTitleInput {
  title: string;
  /** As the script sent it: ShowDoc un-escapes HTML entities once before storing. */
  content: string;
  catPath: string;
  sNumber: number;
}

/**
 * ShowDoc's `Page::updateByTitle`: the page with this title in that catalog is updated, or created
 * when there is none. Returns the saved page.
 */
export async function savePageByTitle(
  holder: KeyHolder,
  input: PageByTitleInput,
): Promise<PageDoc> {
  if (!input.title) throw errors.failed('page_title is required');
  await requireAction(holder.actor, 'page.update', holder.itemId);
  const catId = await catalogForPath(holder, input.catPath);
  const title = unescapeFromClient(input.title);
  const existing = await Page.findOne(
    { item_id: holder.itemId, cat_id: catId, page_title: title, is_del: 0 },
    { page_id: 1, _id: 0 },
  ).lean<{ page_id: number }>();
  if (!existing) {
    const count = await Page.countDocuments({ item_id: holder.itemId, is_del: 0 });
    if (count > MAX_PAGES_PER_ITEM)
      throw errors.refused('Too many pages in this item; ask the site administrator');
  }
  const { page } = await savePage(
    holder.actor,
    {
      pageId: existing?.page_id ?? 0,
      itemId: holder.itemId,
      title,
      content: unescapeFromClient(input.content),
      catId,
      sNumber: input.sNumber,
    },
    { origin: 'open-api' },
  );
  return page;
}

/** `open/getPage`: by id, or by title when no id is given. */
export async function pageOfItem(
  holder: KeyHolder,
  pageId: number,
  title: string,
): Promise<PageDoc> {
  let id = pageId;
  if (!(id > 0) && title) {
    const found = await Page.findOne(
      { item_id: holder.itemId, page_title: title, is_del: 0 },
      { page_id: 1, _id: 0 },
    )
      .sort({ page_id: 1 })
      .lean<{ page_id: number }>();
    id = found?.page_id ?? 0;
  }
  if (!(id > 0)) throw errors.failed('page_id or page_title is required');
  const page = await Page.findOne(
    { page_id: id, item_id: holder.itemId, is_del: 0 },
    { _id: 0 },
  ).lean<PageDoc>();
  if (!page) throw errors.failed('The page does not exist or was deleted');
  return page;
}

/** `open/deletePage`: to the recycle bin, as a delete from the editor. */
export async function deletePageOfItem(holder: KeyHolder, pageId: number): Promise<void> {
  if (!(pageId > 0)) throw errors.failed('page_id is required');
  const page = await Page.exists({ page_id: pageId, item_id: holder.itemId, is_del: 0 });
  if (!page) throw errors.failed('The page does not exist or does not belong to this item');
  await deletePage(holder.actor, pageId);
}

/** `open/getCatalogTree`: the item's menu as its owner sees it. */
export async function catalogTree(holder: KeyHolder): Promise<Menu> {
  const access = await requireAction(holder.actor, 'item.read', holder.itemId);
  return buildMenu(access, holder.actor);
}

async function catalogOfItem(holder: KeyHolder, catId: number): Promise<CatalogDoc> {
  if (!(catId > 0)) throw errors.failed('cat_id is required');
  const cat = await Catalog.findOne(
    { cat_id: catId, item_id: holder.itemId },
    { _id: 0 },
  ).lean<CatalogDoc>();
  if (!cat) throw errors.failed('The catalog does not exist or does not belong to this item');
  return cat;
}

/** `open/createCatalog`. */
export async function createCatalogOfItem(
  holder: KeyHolder,
  input: { name: string; parentCatId: number; sNumber: number },
): Promise<CatalogDoc> {
  if (!input.name) throw errors.failed('cat_name is required');
  const catId = await saveCatalog(holder.actor, {
    itemId: holder.itemId,
    catId: 0,
    catName: input.name,
    parentCatId: input.parentCatId,
    sNumber: input.sNumber,
  });
  return catalogOfItem(holder, catId);
}

/** `open/updateCatalog`: a new name and/or order number. */
export async function updateCatalogOfItem(
  holder: KeyHolder,
  input: { catId: number; name: string; sNumber: number },
): Promise<CatalogDoc> {
  const cat = await catalogOfItem(holder, input.catId);
  if (!input.name && !(input.sNumber > 0)) throw errors.failed('Please give cat_name or s_number');
  await saveCatalog(holder.actor, {
    itemId: holder.itemId,
    catId: cat.cat_id,
    catName: input.name || cat.cat_name,
    sNumber: input.sNumber > 0 ? input.sNumber : cat.s_number,
  });
  return catalogOfItem(holder, cat.cat_id);
}

/** `open/deleteCatalog`. */
export async function deleteCatalogOfItem(holder: KeyHolder, catId: number): Promise<void> {
  const cat = await catalogOfItem(holder, catId);
  await deleteCatalog(holder.actor, cat.cat_id);
}
