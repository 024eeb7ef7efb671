/**
 * Finding a page for an actor: the one place every page path (read, history, diff, lock, save,
 * delete, share, sort) resolves a page id and asks models/access.ts whether the actor may use it.
 *
 * A page the actor must not know about — deleted, in a deleted item, in a catalog outside the
 * actor's catalog restriction, or someone else's draft (the rules: models/access/pageRules.ts) —
 * answers exactly like a page that does not exist, so ids cannot be probed. (ShowDoc applied the
 * catalog restriction to menus only.)
 *
 * Read model: live pages (content included) are kept in memory by id, bounded by count and by
 * their text's length. A page's entry goes on `page.saved`, `page.deleted` and `page.purged`;
 * every page of an item goes on `menu.changed` (ordering, catalog moves and deletes, restores
 * from the recycle bin: every write to page rows outside `savePage` publishes it) — in this
 * process before the write answers, in the others as the bus relays the event.
 */
import {
  itemAccess,
  type ItemAction,
  pageMissing,
  pageVisible,
  permits,
  refusalOf,
  type Actor,
  type ItemAccess,
} from '../access';
import { errors, perContext, ReadCache, type Watch } from '../platform';
import { Page, type PageDoc } from './schemas/page';

export interface PageWithAccess {
  page: PageDoc;
  access: ItemAccess;
}

export interface PageAccessOptions {
  /**
   * What the caller does to the page, a named action (models/access/actions.ts): `page.read`,
   * `page.update`, … Its rule says which code and text refuse it.
   */
  action: ItemAction;
  /** The visit password the client remembered (`_item_pwd`). */
  itemPassword?: string;
  /**
   * Answer 10303 when the page is in a password-protected item the actor has not unlocked, so
   * the client sends the reader to the item-password screen (spec: 10303/10307 on a page fetch).
   * Off by default: the other page routes answer such a page exactly like a missing one.
   */
  askPassword?: boolean;
}

/** Pages kept, and the characters of text (title, content, ext_info) they may hold together. */
export const MAX_CACHED_PAGES = 20_000;
export const MAX_CACHED_PAGE_CHARS = 16_000_000;

const pageCache = perContext((context) => {
  // Missing and deleted pages are not kept, so creations and restores need no event to be seen.
  const cache = new ReadCache<number, PageDoc | null>({
    maxEntries: MAX_CACHED_PAGES,
    maxWeight: MAX_CACHED_PAGE_CHARS,
    weigh: (page) =>
      page ? page.page_content.length + page.page_title.length + (page.ext_info?.length ?? 0) : 0,
    keep: (page) => page !== null,
  });
  const dropPage = ({ pageId }: { pageId: number }) => cache.drop(pageId);
  context.bus.subscribe('page.saved', dropPage, { synchronous: true });
  context.bus.subscribe('page.deleted', dropPage, { synchronous: true });
  context.bus.subscribe(
    'page.purged',
    ({ pageIds }) => {
      for (const id of pageIds) cache.drop(id);
    },
    { synchronous: true },
  );
  context.bus.subscribe(
    'menu.changed',
    ({ itemId }) => cache.dropWhere((_id, page) => page?.item_id === itemId),
    { synchronous: true },
  );
  return cache;
});

/**
 * For the save path: watch a page before writing it, then keep the written page once the save's
 * own `page.saved` has gone out (only when no other write of the page came in between), so the
 * next read of a just-saved page needs no query. Always end a watch: keep it or `unwatch`.
 */
export function watchPageWrite(pageId: number): Watch<number> {
  return pageCache().watch(pageId);
}

export function keepWrittenPage(watch: Watch<number>, page: PageDoc | null): void {
  if (page) pageCache().keepWritten(watch, page);
  else pageCache().unwatch(watch);
}

/** The live page with this id (read model; deleted or missing: null). Do not change it. */
export function findLivePage(pageId: number): Promise<PageDoc | null> {
  return pageCache().get(pageId, async () => {
    const page = await Page.findOne({ page_id: pageId, is_del: 0 }, { _id: 0 }).lean<PageDoc>();
    return page ?? null;
  });
}

/** The live pages among these ids (read model; one query for those not in memory). */
export async function findLivePages(pageIds: number[]): Promise<PageDoc[]> {
  const found = await pageCache().getMany(pageIds, async (missing) => {
    const rows = await Page.find({ page_id: { $in: missing }, is_del: 0 }, { _id: 0 }).lean<
      PageDoc[]
    >();
    return new Map(rows.map((row) => [row.page_id, row]));
  });
  const pages: PageDoc[] = [];
  for (const page of found.values()) if (page) pages.push(page);
  return pages;
}

/** The live page and the actor's access to its item, or the endpoint's error. */
export async function requirePage(
  actor: Actor,
  pageId: number,
  options: PageAccessOptions,
): Promise<PageWithAccess> {
  if (!(pageId > 0)) throw pageMissing();
  const page = await findLivePage(pageId);
  if (!page) throw pageMissing();
  const access = await itemAccess(actor, page.item_id, { itemPassword: options.itemPassword });
  // A page one may not read answers exactly like a missing one (its id reveals nothing), except
  // on the page fetches that ask for the item's password (see `askPassword`).
  if (!access) throw pageMissing();
  if (!permits(access, 'item.read')) {
    if (options.askPassword && access.item.password)
      throw errors.noEditPermission('This item needs its visit password');
    throw pageMissing();
  }
  const refused = refusalOf(access, options.action);
  if (refused) throw refused;
  if (!(await pageVisible(actor, access, page))) throw pageMissing();
  return { page, access };
}
