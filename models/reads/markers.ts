/**
 * Read markers: which version of each page a user last read, per item (schemas/pageRead.ts).
 *
 * The reader reports pages after they were on screen for a few seconds, several at a time; each
 * report is one upsert of the user's document for the item, whatever its number of pages. Only
 * logged-in users who may read a page get a marker for it: pages outside their catalog
 * restriction, other people's drafts and pages of other items are skipped without a word, so a
 * report reveals nothing about them. Share views and anonymous readers record nothing.
 *
 * "Changed since last read" is worked out on the menu the viewer is given (models/catalogs
 * buildMenu, already cut to what they may see), so a restricted member never learns that a page
 * they cannot read changed.
 */
import { catalogParents, catalogVisible, requireItem, type Actor, type ItemAccess } from '../access';
import { buildMenu, type Menu, type MenuCatalog, type MenuPage } from '../catalogs';
import { Page } from '../pages/schemas';
import { errors, nowSeconds } from '../platform';
import { PageRead, type PageReadDoc } from './schemas';

/** Pages one report may carry (the reader sends a few; this bounds a hostile one). */
export const MAX_MARK_BATCH = 200;

export interface ReadReport {
  pageId: number;
  /** The `addtime` of the version the reader showed (the current one when absent). */
  addtime?: number;
}

/** Whether a page saved at `addtime` changed since `doc`'s owner last read it. */
export function changedSinceRead(
  doc: Pick<PageReadDoc, 'pages' | 'since'>,
  pageId: number | string,
  addtime: number,
): boolean {
  const seen = doc.pages?.[String(pageId)];
  return seen === undefined ? addtime > doc.since : seen !== addtime;
}

export async function readDoc(uid: number, itemId: number): Promise<PageReadDoc | null> {
  if (!(uid > 0)) return null;
  return PageRead.findOne({ uid, item_id: itemId }, { _id: 0 }).lean<PageReadDoc>();
}

function requireReader(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

/** One upsert of the user's markers for an item; a concurrent first write is retried once. */
async function upsertMarkers(
  uid: number,
  itemId: number,
  set: Record<string, unknown>,
  sinceOnInsert: boolean,
): Promise<void> {
  const now = nowSeconds();
  const update = {
    $set: { ...set, updated_at: now },
    ...(sinceOnInsert ? { $setOnInsert: { since: now } } : {}),
  };
  try {
    await PageRead.updateOne({ uid, item_id: itemId }, update, { upsert: true, strict: false });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 11000) throw error;
    await PageRead.updateOne({ uid, item_id: itemId }, update, { strict: false });
  }
}

/**
 * Records that the actor read these pages of an item. Answers the ids that got a marker (the
 * readable ones among those reported).
 */
export async function markRead(
  actor: Actor,
  itemId: number,
  reports: ReadReport[],
  options: { itemPassword?: string } = {},
): Promise<{ marked: number[] }> {
  requireReader(actor);
  if (reports.length > MAX_MARK_BATCH) throw errors.failed(`At most ${MAX_MARK_BATCH} pages`);
  const access = await requireItem(actor, itemId, 'visit', {
    itemPassword: options.itemPassword,
    message: 'No permission to visit this item',
  });
  const wanted = new Map<number, number | undefined>();
  for (const r of reports) if (r.pageId > 0) wanted.set(r.pageId, r.addtime);
  if (!wanted.size) return { marked: [] };
  const pages = await Page.find(
    { page_id: { $in: [...wanted.keys()] }, item_id: itemId, is_del: 0 },
    { page_id: 1, cat_id: 1, addtime: 1, is_draft: 1, author_uid: 1, _id: 0 },
  ).lean();
  const parents = access.catalogRestriction ? await catalogParents(itemId) : new Map();
  const set: Record<string, number> = {};
  const marked: number[] = [];
  for (const page of pages) {
    if (page.is_draft && page.author_uid !== actor.uid) continue;
    if (!catalogVisible(access, page.cat_id, parents)) continue;
    const shown = wanted.get(page.page_id);
    // A version newer than the stored one cannot have been read: clamp to the current one.
    const addtime = shown !== undefined && shown > 0 && shown < page.addtime ? shown : page.addtime;
    set[`pages.${page.page_id}`] = addtime;
    marked.push(page.page_id);
  }
  if (marked.length) await upsertMarkers(actor.uid, itemId, set, true);
  return { marked: marked.sort((a, b) => a - b) };
}

function menuPages(menu: Menu): MenuPage[] {
  const out: MenuPage[] = [...(menu.pages as MenuPage[])];
  const visit = (cats: MenuCatalog[]) => {
    for (const cat of cats) {
      out.push(...cat.pages);
      visit(cat.catalogs);
    }
  };
  visit(menu.catalogs);
  return out;
}

/** "Mark all as read": every page the actor can see in the item, at its current version. */
export async function markAllRead(
  actor: Actor,
  itemId: number,
  options: { itemPassword?: string } = {},
): Promise<{ marked: number }> {
  requireReader(actor);
  const access = await requireItem(actor, itemId, 'visit', {
    itemPassword: options.itemPassword,
    message: 'No permission to visit this item',
  });
  const pages = menuPages(await buildMenu(access, actor));
  const markers: Record<string, number> = {};
  for (const page of pages) markers[page.page_id] = Number(page.addtime);
  // The whole map is replaced: markers of pages gone (or no longer visible) go with it.
  await upsertMarkers(actor.uid, itemId, { pages: markers, since: nowSeconds() }, false);
  return { marked: pages.length };
}

export type ReadFlagged<T> = T & { read_changed?: number };

/**
 * Flags the pages of a menu (already cut to what the viewer may see) that changed since the
 * viewer last read them (`read_changed: 1`); answers how many. Nothing for anonymous viewers.
 */
export async function flagChangedPages(actor: Actor, itemId: number, menu: Menu): Promise<number> {
  const doc = await readDoc(actor.uid, itemId);
  if (!doc) return 0;
  let count = 0;
  for (const page of menuPages(menu) as ReadFlagged<MenuPage>[])
    if (changedSinceRead(doc, page.page_id, Number(page.addtime))) {
      page.read_changed = 1;
      count++;
    }
  return count;
}

/** How many pages of an item changed since the actor last read them (0 without markers). */
export async function changedPageCount(
  actor: Actor,
  access: ItemAccess,
  doc: Pick<PageReadDoc, 'pages' | 'since'>,
): Promise<number> {
  let count = 0;
  for (const page of menuPages(await buildMenu(access, actor)))
    if (changedSinceRead(doc, page.page_id, Number(page.addtime))) count++;
  return count;
}
