/**
 * Finding a page for an actor: the one place every page path (read, history, diff, lock, save,
 * delete, share, sort) resolves a page id and asks models/access.ts whether the actor may use it.
 *
 * A page the actor must not know about — deleted, in a deleted item, in a catalog outside the
 * actor's catalog restriction, or someone else's draft — answers exactly like a page that does
 * not exist, so ids cannot be probed. (ShowDoc applied the catalog restriction to menus only.)
 */
import {
  allows,
  canSeeCatalog,
  itemAccess,
  type AccessLevel,
  type Actor,
  type ItemAccess,
} from '../access';
import { ApiError, type ErrorCode } from '../platform';
import { Catalog } from '../catalogs/schemas';
import { Page, type PageDoc } from './schemas/page';

export const PAGE_MISSING = 'Page does not exist';

export interface PageWithAccess {
  page: PageDoc;
  access: ItemAccess;
}

export interface PageAccessOptions {
  level: AccessLevel;
  /** The visit password the client remembered (`_item_pwd`). */
  itemPassword?: string;
  /** Code and text when the level is not met (page endpoints mostly answer 10101). */
  denied?: ErrorCode;
  deniedMessage?: string;
  /**
   * Answer 10303 when the page is in a password-protected item the actor has not unlocked, so
   * the client sends the reader to the item-password screen (spec: 10303/10307 on a page fetch).
   * Off by default: the other page routes answer such a page exactly like a missing one.
   */
  askPassword?: boolean;
}

export function pageMissing(): ApiError {
  return new ApiError(10101, PAGE_MISSING);
}

/** Whether the actor may see this page of an item they can reach (restriction and drafts). */
export async function pageVisible(
  actor: Actor,
  access: ItemAccess,
  page: Pick<PageDoc, 'cat_id' | 'is_draft' | 'author_uid'>,
): Promise<boolean> {
  if (page.is_draft && page.author_uid !== actor.uid) return false;
  return canSeeCatalog(access, page.cat_id);
}

/** The live page and the actor's access to its item, or the endpoint's error. */
export async function requirePage(
  actor: Actor,
  pageId: number,
  options: PageAccessOptions,
): Promise<PageWithAccess> {
  if (!(pageId > 0)) throw pageMissing();
  const page = await Page.findOne({ page_id: pageId, is_del: 0 }, { _id: 0 }).lean<PageDoc>();
  if (!page) throw pageMissing();
  const access = await itemAccess(actor, page.item_id, { itemPassword: options.itemPassword });
  // A page one may not read answers exactly like a missing one (its id reveals nothing), except
  // on the page fetches that ask for the item's password (see `askPassword`).
  if (!access) throw pageMissing();
  if (!access.visit) {
    if (options.askPassword && access.item.password)
      throw new ApiError(10303, 'This item needs its visit password');
    throw pageMissing();
  }
  if (!allows(access, options.level)) {
    const archivedWrite = access.archived && options.level !== 'visit';
    throw new ApiError(
      options.denied ?? 10101,
      archivedWrite ? 'This item is archived and read-only' : options.deniedMessage,
    );
  }
  if (!(await pageVisible(actor, access, page))) throw pageMissing();
  return { page, access };
}

/**
 * Checks a catalog a page is to be put in: 0 (root) or a catalog of this very item (ShowDoc
 * accepted any id, even another item's), inside the actor's restriction.
 */
export async function requireTargetCatalog(access: ItemAccess, catId: number): Promise<void> {
  if (catId < 0) throw new ApiError(10101, 'Catalog does not exist');
  if (catId > 0) {
    const exists = await Catalog.exists({ cat_id: catId, item_id: access.item.item_id });
    if (!exists) throw new ApiError(10101, 'Catalog does not exist');
  }
  if (!(await canSeeCatalog(access, catId))) throw new ApiError(10101, 'Catalog does not exist');
}
