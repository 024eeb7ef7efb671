/**
 * Who may see and write a page of an item they can reach: the catalog restriction and ShowDoc's
 * draft pages (`is_draft`). Every rule about draft pages lives here — who sees one, what a save's
 * draft flag means, whether one may be published — so the page paths (models/pages), the notice
 * centre and the live pushes (realtime/) ask the same functions. (Not the collaborative editor's
 * stored document state, which models/pages/liveDrafts.ts keeps.)
 *
 * A page the actor must not know about answers exactly like a page that does not exist, so ids
 * cannot be probed.
 */
import { errors, type ApiError } from '../platform';
import { catalogParents } from './cache';
import {
  canSeeCatalog,
  catalogVisible,
  requireAction,
  type Actor,
  type ItemAccess,
} from './policy';

export const PAGE_MISSING = 'Page does not exist';

export function pageMissing(): ApiError {
  return errors.failed(PAGE_MISSING);
}

/** What the page rules read of a page (the fields of pages' `PageDoc` of the same names). */
export interface PageFacts {
  cat_id: number;
  is_draft: number;
  author_uid: number;
}

// ---------------------------------------------------------------------------------------------
// Draft pages

/** `is_draft` values a save may send: -1 leaves the flag as it is, 0 publishes, 1 makes a draft. */
const DRAFT_FLAGS: readonly number[] = [-1, 0, 1];

/** Whether a save's draft flag is one a client may send (undefined: not sent). */
export function validDraftFlag(flag: number | undefined): boolean {
  return flag === undefined || DRAFT_FLAGS.includes(flag);
}

/** The flag a save writes (undefined: the stored one stays; a new page then gets 0). */
export function draftFlagToWrite(flag: number | undefined): 0 | 1 | undefined {
  return flag === 0 || flag === 1 ? flag : undefined;
}

/** The flag the page carries after a save that sent `flag`. */
export function draftFlagAfterSave(flag: number | undefined, stored: number): number {
  return draftFlagToWrite(flag) ?? stored;
}

/** A draft is its author's alone: hidden from everyone else, site admins and managers included. */
export function draftHiddenFrom(page: Pick<PageFacts, 'is_draft' | 'author_uid'>, uid: number) {
  return Boolean(page.is_draft) && page.author_uid !== uid;
}

/** A draft is not published: share links do not open it. */
export function publishable(page: Pick<PageFacts, 'is_draft'>): boolean {
  return !page.is_draft;
}

// ---------------------------------------------------------------------------------------------
// Seeing a page

/** Whether the actor may see this page of an item they can reach (restriction and drafts). */
export async function pageVisible(
  actor: Actor,
  access: ItemAccess,
  page: PageFacts,
): Promise<boolean> {
  if (draftHiddenFrom(page, actor.uid)) return false;
  return canSeeCatalog(access, page.cat_id);
}

/**
 * `pageVisible` for many readers of one item at once (a page's subscribers): the same rule, with
 * the item's catalog tree read once and only when someone is restricted. Returns the uids of
 * those who may see the page.
 */
export async function pageVisibleToMany(
  readers: Array<{ actor: Actor; access: ItemAccess }>,
  page: PageFacts,
): Promise<Set<number>> {
  const seeing = new Set<number>();
  const restricted = readers.find((r) => r.access.catalogRestriction);
  const parents = restricted ? await catalogParents(restricted.access.item.item_id) : null;
  for (const { actor, access } of readers) {
    if (draftHiddenFrom(page, actor.uid)) continue;
    if (parents && !catalogVisible(access, page.cat_id, parents)) continue;
    seeing.add(actor.uid);
  }
  return seeing;
}

// ---------------------------------------------------------------------------------------------
// Writing a page

/**
 * Checks a catalog a page is to be put in: 0 (root) or a catalog of this very item (ShowDoc
 * accepted any id, even another item's), inside the actor's restriction.
 */
export async function requireTargetCatalog(access: ItemAccess, catId: number): Promise<void> {
  if (catId < 0) throw errors.failed('Catalog does not exist');
  if (catId > 0) {
    const parents = await catalogParents(access.item.item_id);
    if (!parents.has(catId)) throw errors.failed('Catalog does not exist');
  }
  if (!(await canSeeCatalog(access, catId))) throw errors.failed('Catalog does not exist');
}

export interface PageSaveTarget {
  itemId: number;
  /** 0 = a new page. */
  pageId: number;
  /** The stored page `pageId` names, when it is a live page of `itemId` (else null). */
  page: PageFacts | null;
  /** The catalog the page is to be in after the save. */
  catId: number;
}

/**
 * "May this actor save this page into that catalog?", answered at once: edit on the item
 * (`page.update`: archive and AI-token limits included), then the page (one they may see, of this
 * item; otherwise it does not exist), then the target catalog. Returns the access for the write.
 */
export async function authorizePageSave(actor: Actor, target: PageSaveTarget): Promise<ItemAccess> {
  const access = await requireAction(actor, 'page.update', target.itemId);
  if (target.pageId > 0 && !(target.page && (await pageVisible(actor, access, target.page))))
    throw pageMissing();
  await requireTargetCatalog(access, target.catId);
  return access;
}
