/**
 * Pages: saving (THE single write path), reading, deleting, ordering, "article ID" lookups.
 *
 * Content: the database holds the Markdown exactly as written (never HTML-escaped). ShowDoc kept
 * it escaped and every ShowDoc client un-escapes what it reads exactly once, so reads that ShowDoc
 * served escaped are escaped on the way out (models/pageContent.ts, applied by the page routes):
 * ShowDoc's client and Quire's client both un-escape once and show the author's text. Input sent
 * with `is_urlencode=1` is URL-decoded once by the route before it reaches `savePage`.
 *
 * One write path: REST `page/save`, and later the open API, imports, history restore and the
 * collaborative editor all call `savePage(actor, input, {origin})`. It checks access (edit on the
 * item, archive, catalog restriction, drafts), stores the version being replaced, writes, logs the
 * change, touches the item, pushes the text into the page's live document when one is open (the
 * realtime service plugs in with `connectLiveDocuments`), reminds the page's subscribers on "save
 * and notify" (the notice centre plugs in with `connectPageNotifier`) and publishes `page.saved`
 * (carrying the notify text) and `menu.changed` when the menu moved.
 */
import { permits, requireAction, type Actor, type ItemAccess } from '../access';
import { Item, logChange, MAX_ITEM_NAME, planLogRow } from '../items';
import { type DomainEvents, errors, events, nextId, nowSeconds, perContext } from '../platform';
import {
  findLivePage,
  pageMissing,
  pageVisible,
  requirePage,
  requireTargetCatalog,
  keepWrittenPage,
  watchPageWrite,
} from './pageAccess';
import { markDraftSaved } from './liveDrafts';
import { checkPageQuota } from './pageQuota';
import { historyVersionCount, recordVersion } from './pageHistory';
import { moveToRecycleBin } from './recycle';
import { Catalog } from '../catalogs/schemas';
import { DEFAULT_PAGE_ORDER, Page, type PageDoc } from './schemas/page';
import { activeShareKey } from './shareLinks';
import { checkSheetContent, sheetCellChanges } from './sheetContent';

export const MAX_TITLE_LENGTH = 255;
export const MAX_REMARK_LENGTH = 1000;
export const MAX_EXT_INFO_LENGTH = 65_536;
export const MAX_ORDER = 1_000_000_000;
/** Entries accepted by one `page/sort` call. */
export const MAX_SORT_ENTRIES = 5000;
export const CUSTOM_ID_RULE = /^[A-Za-z0-9_-]{1,64}$/;

export type SaveOrigin = DomainEvents['page.saved']['origin'];
/** An AI agent saving through an MCP token ("Claude via token 'docs-bot'"). */
export type SaveAgent = NonNullable<DomainEvents['page.saved']['agent']>;

const SPREADSHEET = 4;
/** More changed cells than this in one save: viewers reload the workbook instead. */
const MAX_PUSHED_CELLS = 2000;

// ---------------------------------------------------------------------------------------------
// Seams for later features

/** What the realtime service provides so server-side saves reach open editors. */
export interface LivePageDocuments {
  /**
   * Applies a saved version to the page's open collaborative document, if there is one, so its
   * editors see it and the document does not later persist stale text over it. Resolves true
   * when the text went into a document open in this process (false: savePage brings the stored
   * draft up to date itself). Must not throw.
   */
  applySave(save: {
    itemId: number;
    pageId: number;
    title: string;
    content: string;
    byUid: number;
    origin: SaveOrigin;
    /** The stored text this save replaced: what the agent's change is relative to. */
    previous: string;
    /** Set for an AI agent's save (MCP): shown in the document's presence while it writes. */
    agent?: SaveAgent;
  }): Promise<boolean>;
}

/** "Save and notify", as the notice centre (models/notices) takes it from a save. */
export interface PageNotifier {
  /**
   * Called when an update with notify has passed its checks, with the page as the save will
   * leave it: starts finding who is told (none of it depends on the write). Must not throw.
   */
  prepare(notice: {
    page: Pick<PageDoc, 'item_id' | 'page_id' | 'cat_id' | 'is_draft' | 'author_uid'>;
    byUid: number;
    fromName: string;
    text: string;
  }): {
    /** Once the page is written: writes the reminders, then tells their readers. Never throws. */
    send(): Promise<void>;
  };
}

/**
 * What the instance plugs into pages at start: the live-document bridge (realtime), the
 * attachment counter (files) and the notifier (notices) — modules that import pages and so
 * cannot be imported from here.
 */
const plugs = perContext(
  (): {
    liveDocuments: LivePageDocuments | null;
    attachmentCounter: (pageId: number) => Promise<number>;
    notifier: PageNotifier | null;
  } => ({ liveDocuments: null, attachmentCounter: async () => 0, notifier: null }),
);

/** Plugs the live-document bridge in (null unplugs it). */
export function connectLiveDocuments(bridge: LivePageDocuments | null): void {
  plugs().liveDocuments = bridge;
}

/**
 * Plugs the "save and notify" notifier in (without one, saves remind nobody). Returns the
 * function that unplugs it, which puts back the one it replaced.
 */
export function connectPageNotifier(notifier: PageNotifier): () => void {
  const seam = plugs();
  const replaced = seam.notifier;
  seam.notifier = notifier;
  return () => {
    if (seam.notifier === notifier) seam.notifier = replaced;
  };
}

export function setAttachmentCounter(counter: (pageId: number) => Promise<number>): void {
  plugs().attachmentCounter = counter;
}

export function countAttachments(pageId: number): Promise<number> {
  return plugs().attachmentCounter(pageId);
}

// ---------------------------------------------------------------------------------------------
// Saving

export interface SavePageInput {
  /** 0 = create. */
  pageId: number;
  itemId: number;
  title: string;
  /** Raw Markdown (already URL-decoded). */
  content: string;
  /** The version remark (`page_comments`). */
  remark?: string;
  /** Undefined: root on create, unchanged on update. */
  catId?: number;
  /** Applied when > 0; new pages otherwise get 99. */
  sNumber?: number;
  /** -1/undefined = unchanged (new pages: 0). */
  isDraft?: number;
  /** JSON string; undefined = unchanged. */
  extInfo?: string;
  /** "Article ID": undefined = unchanged, '' = none. */
  customId?: string;
  /** "Save and notify" (update only): remind the page's subscribers with this text. */
  notify?: { content: string } | null;
}

export interface SavePageResult {
  page: PageDoc;
  created: boolean;
}

function checkInput(input: SavePageInput): void {
  if (!(input.itemId > 0)) throw errors.failed('Parameter error');
  if (!(input.pageId >= 0)) throw errors.failed('Parameter error');
  if (input.content === '') throw errors.failed('Saving empty content is not allowed');
  if (input.title.trim() === '') throw errors.failed('Please enter the page title');
  if (input.title.length > MAX_TITLE_LENGTH)
    throw errors.failed(`The page title must be at most ${MAX_TITLE_LENGTH} characters`);
  if ((input.remark ?? '').length > MAX_REMARK_LENGTH)
    throw errors.failed(`The remark must be at most ${MAX_REMARK_LENGTH} characters`);
  if (input.sNumber !== undefined && (input.sNumber < 0 || input.sNumber > MAX_ORDER))
    throw errors.failed('Invalid order number');
  if (input.isDraft !== undefined && ![-1, 0, 1].includes(input.isDraft))
    throw errors.failed('Invalid draft flag');
  if (input.customId && !CUSTOM_ID_RULE.test(input.customId))
    throw errors.failed('The article ID may hold letters, digits, - and _ only (at most 64)');
  if (input.extInfo) {
    if (input.extInfo.length > MAX_EXT_INFO_LENGTH) throw errors.failed('ext_info is too large');
    try {
      JSON.parse(input.extInfo);
    } catch {
      throw errors.failed('ext_info must be JSON');
    }
  }
  if ((input.notify?.content ?? '').length > MAX_REMARK_LENGTH)
    throw errors.failed(`The notice must be at most ${MAX_REMARK_LENGTH} characters`);
}

/** RunApi pages carry their request type in ext_info (reference pages §1.2). */
function runApiExtInfo(content: string): string {
  let method = 'get';
  try {
    const parsed = JSON.parse(content) as { info?: { method?: unknown } };
    if (typeof parsed?.info?.method === 'string' && parsed.info.method)
      method = parsed.info.method.toLowerCase();
  } catch {
    // Not JSON: a plain Markdown page in a RunApi item keeps the default.
  }
  return JSON.stringify({ page_type: 'api', api_info: { method } });
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

const CUSTOM_ID_TAKEN = 'Article ID already exists';

/**
 * An article ID names one page of its item (spec 001 §5, "unique per language": Quire's pages
 * have no language, so unique in the item). Addresses take the article ID first and the page ID
 * otherwise (`resolvePageId`), so an article ID of digits only would shadow the page whose ID it
 * is: such an ID must be the page's own.
 */
async function checkCustomIdFree(
  itemId: number,
  customId: string,
  pageId: number,
  stored: string | undefined,
): Promise<void> {
  // Unchanged: the unique index already holds it (and older data keeps saving).
  if (!customId || customId === stored) return;
  if (/^\d+$/.test(customId) && Number(customId) !== pageId) {
    const shadowed = await Page.exists({ item_id: itemId, page_id: Number(customId) });
    throw errors.failed(
      shadowed ? CUSTOM_ID_TAKEN : "An article ID of digits only must be the page's own ID",
    );
  }
  const taken = await Page.exists({
    item_id: itemId,
    page_custom_id: customId,
    page_id: { $ne: pageId },
  });
  if (taken) throw errors.failed(CUSTOM_ID_TAKEN);
}

type PreparedNotice = ReturnType<PageNotifier['prepare']>;

/**
 * "Save and notify" (updates only, once the save has passed its checks): who is told, and the
 * reminders' ids and text, are found and written while the page is written, for the page as this
 * save leaves it (its catalog, draft flag and author).
 */
function prepareNotice(
  actor: Actor,
  input: SavePageInput,
  existing: PageDoc | null,
  catId: number,
): PreparedNotice | null {
  const notifier = plugs().notifier;
  if (!existing || !input.notify || !notifier) return null;
  const isDraft = input.isDraft === 0 || input.isDraft === 1 ? input.isDraft : existing.is_draft;
  return notifier.prepare({
    page: { ...existing, cat_id: catId, is_draft: isDraft, author_uid: actor.uid },
    byUid: actor.uid,
    fromName: actor.username,
    text: input.notify.content,
  });
}

/** Creates or updates a page. See the file comment for everything it does. */
export async function savePage(
  actor: Actor,
  input: SavePageInput,
  options: { origin: SaveOrigin; now?: number; agent?: SaveAgent },
): Promise<SavePageResult> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  checkInput(input);
  const access = await requireAction(actor, 'page.update', input.itemId);
  if (access.item.item_type === SPREADSHEET) checkSheetContent(input.content);

  let existing: PageDoc | null = null;
  if (input.pageId > 0) {
    existing = await findLivePage(input.pageId);
    if (
      !existing ||
      existing.item_id !== input.itemId ||
      !(await pageVisible(actor, access, existing))
    )
      throw pageMissing();
  }
  if (!existing) await checkPageQuota(input.itemId);
  const catId = input.catId ?? existing?.cat_id ?? 0;
  await requireTargetCatalog(access, catId);
  const customId = input.customId ?? existing?.page_custom_id ?? '';
  await checkCustomIdFree(input.itemId, customId, input.pageId, existing?.page_custom_id);

  const now = options.now ?? nowSeconds();
  const itemType = access.item.item_type || 1;
  let extInfo = input.extInfo ?? existing?.ext_info ?? '';
  if (itemType === 3 && !extInfo) extInfo = runApiExtInfo(input.content);
  const fields = {
    page_title: input.title,
    page_content: input.content,
    page_comments: input.remark ?? '',
    cat_id: catId,
    addtime: now,
    author_uid: actor.uid,
    author_username: actor.username,
    ext_info: extInfo,
    page_custom_id: customId,
    ...(input.sNumber && input.sNumber > 0 ? { s_number: input.sNumber } : {}),
    ...(input.isDraft === 0 || input.isDraft === 1 ? { is_draft: input.isDraft } : {}),
  };

  const notice = prepareNotice(actor, input, existing, catId);
  // Kept in the read model after the save's event when no other write of the page raced it.
  const watch = existing ? watchPageWrite(existing.page_id) : null;
  let result: SavePageResult;
  try {
    result = await writePage(actor, input, access, existing, fields, now, options, notice);
  } catch (error) {
    if (watch) keepWrittenPage(watch, null);
    throw error;
  }
  if (watch) keepWrittenPage(watch, { ...result.page });
  return result;
}

async function writePage(
  actor: Actor,
  input: SavePageInput,
  access: ItemAccess,
  existing: PageDoc | null,
  fields: PageFields,
  now: number,
  options: { origin: SaveOrigin; agent?: SaveAgent },
  notice: PreparedNotice | null,
): Promise<SavePageResult> {
  // The version's and the log row's ids (and the log trim's bound, when this row trims) are
  // found while the page is written: a save then waits for two journal flushes in a row (the
  // page, then everything else at once), not four. The version trim needs no query: the page
  // write itself numbers the version (`history_seq`). A failed save leaves a gap in those ids,
  // as a failed insert does in any counter.
  const planned = Promise.all([
    existing ? nextId('page_history_id') : 0,
    existing ? historyVersionCount() : 0,
    planLogRow(input.itemId),
  ]);
  planned.catch(() => {}); // awaited below unless the page write fails first
  let page: PageDoc;
  let before: PageDoc | null = null;
  try {
    if (existing) ({ page, before } = await updateExisting(existing, fields));
    else page = await insertNew(input.itemId, fields, now);
  } catch (error) {
    if (isDuplicateKey(error)) throw errors.failed(CUSTOM_ID_TAKEN);
    throw error;
  }
  const created = !existing;
  const [historyId, keepVersions, logRow] = await planned;

  // A "save and notify" delivers its reminders first (their notice goes out before this save's
  // own events): the engine takes writes in the order they come, and the save's other writes,
  // sent before them, would hold them up by a disk flush. The save's answer waits for all of it
  // anyway.
  await notice?.send();
  // Independent writes, all done before the answer: together they share the engine's group
  // commits instead of waiting for one disk flush each. The live document (an open editor's, or
  // the stored draft) takes the saved text alongside.
  const { liveDocuments } = plugs();
  let live = false;
  await Promise.all([
    before ? recordVersion(before, { id: historyId, keep: keepVersions }) : undefined,
    logChange(
      {
        uid: actor.uid,
        itemId: page.item_id,
        action: created ? 'create' : 'update',
        object: 'page',
        objectId: page.page_id,
        objectName: page.page_title,
        // An AI agent's save names it ("Claude via token 'docs-bot'") beside the token's owner.
        ...(options.agent ? { remark: options.agent.label } : {}),
      },
      logRow,
    ),
    touchItem(access, page, created, now, actor),
    !created && options.origin !== 'collab'
      ? (async () => {
          live = liveDocuments
            ? await liveDocuments
                .applySave({
                  itemId: page.item_id,
                  pageId: page.page_id,
                  title: page.page_title,
                  content: page.page_content,
                  byUid: actor.uid,
                  origin: options.origin,
                  previous: before?.page_content ?? page.page_content,
                  ...(options.agent ? { agent: options.agent } : {}),
                })
                // The bridge reports its own failures; the stored version stands.
                .catch(() => false)
            : false;
          // No document open here took the text (none is, or this process holds none: a
          // worker other than the lead, the API role): a stored draft that now equals it is
          // saved. A page that never had a draft has none to mark (most saves).
          if (!live && before?.has_draft === 1)
            await markDraftSaved(page.page_id, page.page_content, now);
        })()
      : undefined,
  ]);
  events.publish('page.saved', {
    itemId: page.item_id,
    pageId: page.page_id,
    catId: page.cat_id,
    byUid: actor.uid,
    created,
    origin: options.origin,
    notify: !created && input.notify ? { content: input.notify.content } : null,
    at: now,
    live,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  if (existing && access.item.item_type === SPREADSHEET) {
    const cells = sheetCellChanges(existing.page_content, page.page_content);
    events.publish('sheet.changed', {
      itemId: page.item_id,
      pageId: page.page_id,
      byUid: actor.uid,
      cells: cells && cells.length <= MAX_PUSHED_CELLS ? cells : null,
    });
  }
  const menuMoved =
    !existing ||
    existing.page_title !== page.page_title ||
    existing.cat_id !== page.cat_id ||
    existing.s_number !== page.s_number ||
    existing.is_draft !== page.is_draft;
  if (menuMoved) events.publish('menu.changed', { itemId: page.item_id, byUid: actor.uid });
  return { page, created };
}

type PageFields = Partial<PageDoc> &
  Pick<PageDoc, 'page_title' | 'page_content' | 'cat_id' | 'addtime'>;

async function updateExisting(
  existing: PageDoc,
  fields: PageFields,
): Promise<{ page: PageDoc; before: PageDoc }> {
  // The before-image of this very update becomes the version (recordVersion), so concurrent saves
  // each keep the text they replaced.
  const before = await Page.findOneAndUpdate(
    { page_id: existing.page_id, item_id: existing.item_id, is_del: 0 },
    { $set: fields, $inc: { history_seq: 1 } },
    { returnDocument: 'before', projection: { _id: 0 } },
  ).lean<PageDoc>();
  if (!before) throw pageMissing();
  return {
    page: { ...before, ...fields, history_seq: (before.history_seq ?? 0) + 1 },
    before,
  };
}

async function insertNew(itemId: number, fields: PageFields, now: number): Promise<PageDoc> {
  const doc: PageDoc = {
    page_id: await nextId('page_id'),
    item_id: itemId,
    page_comments: '',
    s_number: DEFAULT_PAGE_ORDER,
    page_addtime: now,
    author_uid: 0,
    author_username: '',
    is_del: 0,
    ext_info: '',
    is_draft: 0,
    page_custom_id: '',
    history_seq: 0,
    ...fields,
  };
  await Page.create(doc);
  return doc;
}

/** Item `last_update_time` := now (or later); a single-page item takes its page's title as its name. */
async function touchItem(
  access: ItemAccess,
  page: PageDoc,
  created: boolean,
  now: number,
  actor: Actor,
): Promise<void> {
  const rename = !created && access.item.item_type === 2 && page.page_title.trim() !== '';
  const name = rename ? page.page_title.trim().slice(0, MAX_ITEM_NAME) : undefined;
  // The kept item follows every save's `at` (models/access), and never runs ahead of the
  // database: when it is at `now` already (another save this second), the `$max` would change
  // nothing — most saves under a stream of them skip the write.
  if (name === undefined && (access.item.last_update_time ?? 0) >= now) return;
  // $max: concurrent saves leave the latest time whatever order they land in, so the read
  // models can patch their copy from each `page.saved` (`at`) instead of reloading the item.
  await Item.updateOne(
    { item_id: page.item_id },
    {
      $max: { last_update_time: now },
      ...(name !== undefined ? { $set: { item_name: name } } : {}),
    },
  );
  if (name !== undefined && name !== access.item.item_name)
    events.publish('item.changed', { itemId: page.item_id, change: 'updated', byUid: actor.uid });
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface PageDetails {
  page: PageDoc;
  attachmentCount: number;
  /** The active share-link key, '' when none. */
  uniqueKey: string;
  /** Catalogs top-down then the page (with_path=1 and the page is in a catalog). */
  fullPath?: Array<{ cat_id: number; cat_name: string } | { page_id: number; page_title: string }>;
}

/** page/info: the page for a reader (visit access; drafts and the catalog restriction apply). */
export async function readPage(
  actor: Actor,
  pageId: number,
  options: { itemPassword?: string; withPath?: boolean; now?: number } = {},
): Promise<PageDetails> {
  const { page } = await requirePage(actor, pageId, {
    level: 'visit',
    itemPassword: options.itemPassword,
    deniedMessage: 'No access permission',
    askPassword: true,
  });
  const [attachmentCount, uniqueKey] = await Promise.all([
    countAttachments(page.page_id),
    activeShareKey(page.page_id, options.now ?? nowSeconds()),
  ]);
  const details: PageDetails = { page, attachmentCount, uniqueKey };
  if (options.withPath && page.cat_id > 0) details.fullPath = await catalogPath(page);
  return details;
}

async function catalogPath(page: PageDoc): Promise<NonNullable<PageDetails['fullPath']>> {
  const catalogs = await Catalog.find(
    { item_id: page.item_id },
    { cat_id: 1, cat_name: 1, parent_cat_id: 1, _id: 0 },
  ).lean();
  const byId = new Map(catalogs.map((c) => [c.cat_id, c]));
  const chain: Array<{ cat_id: number; cat_name: string }> = [];
  const seen = new Set<number>();
  for (let id = page.cat_id; id > 0 && !seen.has(id);) {
    seen.add(id);
    const cat = byId.get(id);
    if (!cat) break;
    chain.unshift({ cat_id: cat.cat_id, cat_name: cat.cat_name });
    id = cat.parent_cat_id;
  }
  return [...chain, { page_id: page.page_id, page_title: page.page_title }];
}

// ---------------------------------------------------------------------------------------------
// Deleting, ordering, article IDs

/**
 * Moves a page to its item's recycle bin. Allowed to the item's managers, and to editors for the
 * pages they last saved. ShowDoc also let a page's last editor delete it after losing every right.
 */
export async function deletePage(
  actor: Actor,
  pageId: number,
  options: { now?: number } = {},
): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(pageId > 0)) throw pageMissing();
  const { page, access } = await requirePage(actor, pageId, {
    level: 'edit',
    denied: 10303,
    deniedMessage: 'No delete permission',
  });
  if (!permits(access, 'page.deleteAnyones') && page.author_uid !== actor.uid)
    throw errors.noEditPermission('Only the item managers or the page author may delete this page');
  const now = options.now ?? nowSeconds();
  if (!(await moveToRecycleBin(actor, page, now))) throw pageMissing();
  await Item.updateOne({ item_id: page.item_id }, { $set: { last_update_time: now } });
  await logChange({
    uid: actor.uid,
    itemId: page.item_id,
    action: 'delete',
    object: 'page',
    objectId: page.page_id,
    objectName: page.page_title,
  });
  events.publish('page.deleted', { itemId: page.item_id, pageId: page.page_id, byUid: actor.uid });
  events.publish('menu.changed', { itemId: page.item_id, byUid: actor.uid });
}

/**
 * page/sort: sets `s_number` of pages of the item (edit access). Ids of other items, deleted pages
 * and pages the actor may not see are skipped, exactly like ids that do not exist.
 */
export async function sortPages(
  actor: Actor,
  itemId: number,
  orders: Map<number, number>,
): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const access = await requireAction(actor, 'page.update', itemId);
  if (orders.size > MAX_SORT_ENTRIES)
    throw errors.failed(`At most ${MAX_SORT_ENTRIES} pages per call`);
  if (!orders.size) return;
  const pages = await Page.find(
    { page_id: { $in: [...orders.keys()] }, item_id: itemId, is_del: 0 },
    { page_id: 1, cat_id: 1, is_draft: 1, author_uid: 1, s_number: 1, _id: 0 },
  ).lean();
  let changed = false;
  for (const page of pages) {
    const order = orders.get(page.page_id) as number;
    if (order === page.s_number || !(await pageVisible(actor, access, page))) continue;
    await Page.updateOne({ page_id: page.page_id, item_id: itemId }, { $set: { s_number: order } });
    changed = true;
  }
  if (changed) events.publish('menu.changed', { itemId, byUid: actor.uid });
}

/**
 * page/getPageID (hosted edition): page id → its article ID, or (item, article ID) → page id.
 * A page without an article ID answers its numeric id, and a numeric "article ID" that no page
 * claims resolves to that page id in the item, so addresses built from either keep working.
 */
export async function resolvePageId(
  actor: Actor,
  input: { pageId?: number; itemId?: number; customId?: string; itemPassword?: string },
): Promise<{ page_id: number; page_custom_id: string }> {
  let page: PageDoc;
  if (input.pageId && input.pageId > 0) {
    page = (
      await requirePage(actor, input.pageId, {
        level: 'visit',
        itemPassword: input.itemPassword,
        deniedMessage: 'No access permission',
      })
    ).page;
  } else if (input.itemId && input.itemId > 0 && input.customId) {
    const byCustom = await Page.findOne(
      { item_id: input.itemId, page_custom_id: input.customId, is_del: 0 },
      { page_id: 1, _id: 0 },
    ).lean();
    const id =
      byCustom?.page_id ?? (/^\d{1,15}$/.test(input.customId) ? Number(input.customId) : 0);
    if (!id) throw pageMissing();
    page = (
      await requirePage(actor, id, {
        level: 'visit',
        itemPassword: input.itemPassword,
        deniedMessage: 'No access permission',
      })
    ).page;
    if (page.item_id !== input.itemId) throw pageMissing();
  } else {
    throw errors.failed('Parameter error');
  }
  return { page_id: page.page_id, page_custom_id: page.page_custom_id || String(page.page_id) };
}
