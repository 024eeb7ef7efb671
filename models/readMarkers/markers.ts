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
import {
  catalogParents,
  catalogVisible,
  requireAction,
  type Actor,
  type ItemAccess,
} from '../access';
import { buildMenu, type Menu, type MenuCatalog, type MenuPage } from '../catalogs';
import { Page, PageHistory } from '../pages';
import { errors, nowSeconds } from '../platform';
import { readDoc, readDocChanged } from './markerCache';
import { PageRead, type PageReadDoc } from './schemas';

export { readDoc };

/** Pages one report may carry (the reader sends a few; this bounds a hostile one). */
export const MAX_MARK_BATCH = 200;

export interface ReadReport {
  pageId: number;
  /** The `addtime` of the version the reader showed (the current one when absent). */
  addtime?: number;
}

/**
 * A page's marker: the `addtime` of the version read, or — when the read was recorded in the very
 * second that version was saved, so a second save in that second would keep the same `addtime` —
 * `[addtime, newest history id then]`, which every later save outgrows.
 */
export type Marker = number | [number, number];

type ReadState = Pick<PageReadDoc, 'uid' | 'pages' | 'since'>;

/** The newest history id of each page (0 for pages never saved over). */
async function newestVersions(pageIds: number[]): Promise<Map<number, number>> {
  if (!pageIds.length) return new Map();
  const rows = await PageHistory.aggregate<{ _id: number; h: number }>([
    { $match: { page_id: { $in: pageIds } } },
    { $group: { _id: '$page_id', h: { $max: '$page_history_id' } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.h]));
}

/**
 * The ids (as strings) of the pages that changed since the reader of `doc` last read them. A page
 * whose current version the reader saved themself is not news to them (their own edit, import or
 * copy), whatever their marker says.
 */
export async function changedSinceRead(
  doc: ReadState,
  pages: Array<{
    page_id: number | string;
    addtime: number | string;
    author_uid?: number | string;
  }>,
): Promise<Set<string>> {
  const changed = new Set<string>();
  const sameSecond = new Map<number, number>();
  for (const page of pages) {
    const id = String(page.page_id);
    const addtime = Number(page.addtime);
    if (doc.uid > 0 && Number(page.author_uid) === doc.uid) continue;
    const marker = doc.pages?.[id] as Marker | undefined;
    if (marker === undefined) {
      if (addtime >= doc.since) changed.add(id);
    } else if (typeof marker === 'number') {
      if (addtime !== marker) changed.add(id);
    } else if (addtime !== marker[0]) changed.add(id);
    else sameSecond.set(Number(id), marker[1]);
  }
  if (sameSecond.size)
    for (const [pageId, newest] of await newestVersions([...sameSecond.keys()]))
      if (newest > (sameSecond.get(pageId) ?? 0)) changed.add(String(pageId));
  return changed;
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
    // Pages saved in the second of the first read are not news to the reader.
    ...(sinceOnInsert ? { $setOnInsert: { since: now + 1 } } : {}),
  };
  try {
    await PageRead.updateOne({ uid, item_id: itemId }, update, { upsert: true, strict: false });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 11000) throw error;
    await PageRead.updateOne({ uid, item_id: itemId }, update, { strict: false });
  } finally {
    readDocChanged(uid, itemId);
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
  const access = await requireAction(actor, 'item.read', itemId, {
    itemPassword: options.itemPassword,
  });
  const wanted = new Map<number, number | undefined>();
  for (const r of reports) if (r.pageId > 0) wanted.set(r.pageId, r.addtime);
  if (!wanted.size) return { marked: [] };
  const pages = await Page.find(
    { page_id: { $in: [...wanted.keys()] }, item_id: itemId, is_del: 0 },
    { page_id: 1, cat_id: 1, addtime: 1, is_draft: 1, author_uid: 1, _id: 0 },
  ).lean();
  const parents = access.catalogRestriction ? await catalogParents(itemId) : new Map();
  const chosen = new Map<number, number>();
  for (const page of pages) {
    if (page.is_draft && page.author_uid !== actor.uid) continue;
    if (!catalogVisible(access, page.cat_id, parents)) continue;
    const shown = wanted.get(page.page_id);
    // A version newer than the stored one cannot have been read: clamp to the current one.
    chosen.set(
      page.page_id,
      shown !== undefined && shown > 0 && shown < page.addtime ? shown : page.addtime,
    );
  }
  const now = nowSeconds();
  const fresh = [...chosen].filter(([, addtime]) => addtime >= now).map(([id]) => id);
  const versions = await newestVersions(fresh);
  const set: Record<string, Marker> = {};
  for (const [pageId, addtime] of chosen)
    set[`pages.${pageId}`] = fresh.includes(pageId)
      ? [addtime, versions.get(pageId) ?? 0]
      : addtime;
  const marked = [...chosen.keys()];
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
  const access = await requireAction(actor, 'item.read', itemId, {
    itemPassword: options.itemPassword,
  });
  const pages = menuPages(await buildMenu(access, actor));
  const now = nowSeconds();
  const fresh = pages.filter((p) => Number(p.addtime) >= now).map((p) => Number(p.page_id));
  const versions = await newestVersions(fresh);
  const markers: Record<string, Marker> = {};
  for (const page of pages) {
    const id = Number(page.page_id);
    const addtime = Number(page.addtime);
    markers[page.page_id] = addtime >= now ? [addtime, versions.get(id) ?? 0] : addtime;
  }
  // The whole map is replaced: markers of pages gone (or no longer visible) go with it.
  await upsertMarkers(actor.uid, itemId, { pages: markers, since: now }, false);
  return { marked: pages.length };
}

/**
 * Which of these pages (the menu the viewer gets, already cut to what they may see) changed
 * since the viewer last read them — item/info flags them `read_changed: 1`. None for anonymous
 * viewers or a viewer who never read the item.
 */
export async function changedMenuPages(
  actor: Actor,
  itemId: number,
  pages: Array<{ page_id: number; addtime: number; author_uid: number }>,
): Promise<Set<number>> {
  const doc = actor.uid > 0 ? await readDoc(actor.uid, itemId) : null;
  if (!doc) return new Set();
  return new Set([...(await changedSinceRead(doc, pages))].map(Number));
}

/** How many pages of an item changed since the actor last read them. */
export async function changedPageCount(
  actor: Actor,
  access: ItemAccess,
  doc: ReadState,
): Promise<number> {
  return (await changedSinceRead(doc, menuPages(await buildMenu(access, actor)))).size;
}
