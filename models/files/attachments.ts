/**
 * Attachments after upload (reference accounts §9.19, pages §3.13): the attachment manager's
 * lists and usage totals, deleting files, binding files to pages, a page's attachment list, and
 * the module's start (file storage, the page/info attachment count, clean-up on page purge).
 * Uploading is models/uploads.ts; reading a file's bytes is models/fileVisits.ts.
 *
 * Rules: a file is managed by its uploader (site admins through the admin actions). Binding a
 * file to a page needs the file's ownership and edit rights on the page (visible to the caller);
 * unbinding one page of a file bound to several needs edit rights on that page. Deleting a file
 * removes its row first (so it is no longer served), then its bindings, then its bytes.
 */
import { requireAction, type Actor, isSiteAdmin } from '../access';
import {
  type ApiError,
  configureFileStorage,
  errors,
  events,
  fileStorage,
  SwitchingFileStorage,
  type FileStorage,
  formatUnix,
  localStorageFor,
  nextId,
  nowSeconds,
  perContext,
  ReadCache,
} from '../platform';
import { Page, requirePage, setAttachmentCounter } from '../pages';
import { cloudResolver } from './cloudStorage';
import { FileFlow } from './schemas/fileFlow';
import { FilePage } from './schemas/filePage';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';
import { User } from '../accounts';

export const DEFAULT_LIST_COUNT = 20;
export const MAX_LIST_COUNT = 100;
const MAX_NAME_FILTER = 200;

function fileMissing(): ApiError {
  return errors.failed('The file does not exist or is not yours');
}

// ---------------------------------------------------------------------------------------------
// Lists and totals

export interface ListFilter {
  /** 1 images, 2 everything else, anything else: all. */
  attachmentType: number;
  /** Substring of the display name ('' = any). */
  displayName: string;
  page: number;
  count: number;
}

export interface FileList {
  rows: UploadFileDoc[];
  total: number;
  /** Bytes of the files the totals cover. */
  used: number;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function typeFilter(attachmentType: number): Record<string, unknown> {
  if (attachmentType === 1) return { file_type: { $regex: '^image/' } };
  if (attachmentType === 2) return { file_type: { $not: { $regex: '^image/' } } };
  return {};
}

function pageOf(filter: ListFilter): { skip: number; limit: number } {
  const count = filter.count > 0 ? Math.min(filter.count, MAX_LIST_COUNT) : DEFAULT_LIST_COUNT;
  const page = filter.page > 0 ? Math.min(filter.page, 1_000_000) : 1;
  return { skip: (page - 1) * count, limit: count };
}

async function bytesOf(match: Record<string, unknown>): Promise<number> {
  const [row] = await UploadFile.aggregate<{ used: number }>([
    { $match: match },
    { $group: { _id: null, used: { $sum: '$file_size' } } },
  ]);
  return Number(row?.used ?? 0);
}

async function listWhere(
  match: Record<string, unknown>,
  filter: ListFilter,
): Promise<Omit<FileList, 'used'>> {
  const { skip, limit } = pageOf(filter);
  const [rows, total] = await Promise.all([
    UploadFile.find(match, { _id: 0 })
      .sort({ addtime: -1, file_id: -1 })
      .skip(skip)
      .limit(limit)
      .lean<UploadFileDoc[]>(),
    UploadFile.countDocuments(match),
  ]);
  return { rows, total };
}

function nameFilter(displayName: string): string {
  const text = displayName.trim();
  if (text.length > MAX_NAME_FILTER)
    throw errors.failed(`The name filter must be at most ${MAX_NAME_FILTER} characters`);
  return text;
}

/** attachment/getMyList: the caller's files; `used` counts all of them. */
export async function listMyFiles(actor: Actor, filter: ListFilter): Promise<FileList> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const name = nameFilter(filter.displayName);
  const match: Record<string, unknown> = {
    uid: actor.uid,
    ...typeFilter(filter.attachmentType),
    ...(name ? { display_name: { $regex: escapeRegex(name), $options: 'i' } } : {}),
  };
  const [list, used] = await Promise.all([listWhere(match, filter), bytesOf({ uid: actor.uid })]);
  return { ...list, used };
}

/**
 * attachment/getAllList (site admins): every file, optionally one user's (by username or e-mail;
 * an unknown user lists nothing); the name filter also matches a sign. `used` honours the filters.
 */
export async function listAllFiles(
  actor: Actor,
  filter: ListFilter & { username: string },
): Promise<FileList & { usernames: Map<number, string> }> {
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  const name = nameFilter(filter.displayName);
  const match: Record<string, unknown> = { ...typeFilter(filter.attachmentType) };
  const username = filter.username.trim();
  if (username) {
    const user = await User.findOne(
      { $or: [{ username }, { email: username }] },
      { uid: 1, _id: 0 },
    ).lean();
    if (!user) return { rows: [], total: 0, used: 0, usernames: new Map() };
    match.uid = user.uid;
  }
  if (name)
    match.$or = [
      { display_name: { $regex: escapeRegex(name), $options: 'i' } },
      { sign: name.toLowerCase() },
    ];
  const [list, used] = await Promise.all([listWhere(match, filter), bytesOf(match)]);
  const uids = [...new Set(list.rows.map((r) => r.uid))];
  const users = await User.find({ uid: { $in: uids } }, { uid: 1, username: 1, _id: 0 }).lean();
  return { ...list, used, usernames: new Map(users.map((u) => [u.uid, u.username])) };
}

/** `YYYY-MM` of a Unix time in the server zone (the month of `file_flow`). */
export function monthOf(seconds: number): string {
  return formatUnix(seconds).slice(0, 7);
}

/** Bytes downloaded this month from the user's files. */
export async function monthlyTraffic(uid: number, now = nowSeconds()): Promise<number> {
  const row = await FileFlow.findOne({ uid, date_month: monthOf(now) }, { used: 1 }).lean();
  return Number(row?.used ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Deleting

export async function destroyFile(file: UploadFileDoc): Promise<void> {
  const bindings = await FilePage.find({ file_id: file.file_id }, { page_id: 1, _id: 0 }).lean();
  await UploadFile.deleteOne({ file_id: file.file_id });
  await FilePage.deleteMany({ file_id: file.file_id });
  if (file.storage_key) await fileStorage().remove(file.storage_key);
  events.publish('attachment.changed', {
    fileId: file.file_id,
    uid: file.uid,
    itemId: file.item_id,
    pageIds: bindings.map((b) => b.page_id),
    change: 'deleted',
  });
}

export async function findFile(fileId: number): Promise<UploadFileDoc | null> {
  if (!(fileId > 0)) return null;
  return UploadFile.findOne({ file_id: fileId }, { _id: 0 }).lean<UploadFileDoc>();
}

/**
 * open/deleteAttachment: a file of this item (uploaded into it, or bound to one of its pages) is
 * deleted everywhere by someone who may edit the item. The file is named by id or by sign.
 */
export async function deleteItemFile(
  actor: Actor,
  itemId: number,
  ref: { fileId: number; sign: string },
): Promise<number> {
  await requireAction(actor, 'attachment.update', itemId);
  const file =
    ref.fileId > 0
      ? await findFile(ref.fileId)
      : ref.sign
        ? await UploadFile.findOne({ sign: ref.sign }, { _id: 0 }).lean<UploadFileDoc>()
        : null;
  if (!file) throw errors.failed('Please give file_id, file_url or sign of an existing file');
  const pageIds = (
    await FilePage.find({ file_id: file.file_id }, { page_id: 1, _id: 0 }).lean()
  ).map((b) => b.page_id);
  const onItemPage = pageIds.length
    ? await Page.exists({ page_id: { $in: pageIds }, item_id: itemId })
    : null;
  if (file.item_id !== itemId && !onItemPage)
    throw errors.failed('The file does not belong to this item');
  await destroyFile(file);
  return file.file_id;
}

/** attachment/deleteMyAttachment: the uploader deletes a file everywhere. */
export async function deleteMyFile(actor: Actor, fileId: number): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const file = await findFile(fileId);
  if (!file || file.uid !== actor.uid) throw fileMissing();
  await destroyFile(file);
}

/** attachment/deleteAttachment: a site admin deletes any file. */
export async function deleteAnyFile(actor: Actor, fileId: number): Promise<void> {
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  const file = await findFile(fileId);
  if (!file) throw errors.failed('The file does not exist');
  await destroyFile(file);
}

/**
 * page/deleteUploadFile: a file on at most one page is deleted altogether (its uploader only);
 * a file on several pages loses this page only (edit rights on the page).
 */
export async function removeFileFromPage(
  actor: Actor,
  fileId: number,
  pageId: number,
): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(fileId > 0) || !(pageId > 0)) throw errors.failed('Parameter error');
  const file = await findFile(fileId);
  if (!file) throw fileMissing();
  const pages = await FilePage.countDocuments({ file_id: fileId });
  if (pages <= 1) {
    if (file.uid !== actor.uid) throw fileMissing();
    await destroyFile(file);
    return;
  }
  const { page } = await requirePage(actor, pageId, {
    action: 'attachment.bind',
  });
  const { deletedCount } = await FilePage.deleteOne({ file_id: fileId, page_id: page.page_id });
  if (!deletedCount) throw errors.failed('The file is not attached to this page');
  events.publish('attachment.changed', {
    fileId,
    uid: file.uid,
    itemId: file.item_id,
    pageIds: [page.page_id],
    change: 'unbound',
  });
}

// ---------------------------------------------------------------------------------------------
// Pages

/** attachment/bindingPage: attaches one of the caller's files to a page they may edit. */
export async function bindFileToPage(actor: Actor, fileId: number, pageId: number): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const file = await findFile(fileId);
  if (!file || file.uid !== actor.uid) throw fileMissing();
  const { page } = await requirePage(actor, pageId, {
    action: 'attachment.bind',
  });
  if (await FilePage.exists({ file_id: fileId, page_id: page.page_id })) return;
  try {
    await FilePage.create({
      id: await nextId('file_page_id'),
      file_id: fileId,
      item_id: page.item_id,
      page_id: page.page_id,
      addtime: nowSeconds(),
    });
  } catch (error) {
    // A concurrent bind of the same pair won: the binding exists, which is what was asked.
    if ((error as { code?: unknown })?.code !== 11000) throw error;
    return;
  }
  events.publish('attachment.changed', {
    fileId,
    uid: file.uid,
    itemId: file.item_id,
    pageIds: [page.page_id],
    change: 'bound',
  });
}

export interface PageAttachment {
  file: UploadFileDoc;
  /** When the file was attached to the page. */
  boundAt: number;
}

/** The most attachments one page lists. */
const MAX_PAGE_ATTACHMENTS = 500;

/** page/uploadList: the files of a page the actor may read, newest attachment first. */
export async function pageAttachments(
  actor: Actor,
  pageId: number,
  options: { itemPassword?: string } = {},
): Promise<PageAttachment[]> {
  if (!(pageId > 0)) throw errors.noPermission('Please save the page at least once first');
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
  });
  const bindings = await FilePage.find(
    { page_id: page.page_id },
    { file_id: 1, addtime: 1, id: 1, _id: 0 },
  )
    .sort({ addtime: -1, id: -1 })
    .limit(MAX_PAGE_ATTACHMENTS)
    .lean();
  const files = await UploadFile.find(
    { file_id: { $in: bindings.map((b) => b.file_id) } },
    { _id: 0 },
  ).lean<UploadFileDoc[]>();
  const byId = new Map(files.map((f) => [f.file_id, f]));
  return bindings
    .filter((b) => byId.has(b.file_id))
    .map((b) => ({ file: byId.get(b.file_id) as UploadFileDoc, boundAt: b.addtime }));
}

/** Pages whose attachment count is kept (read model: a few bytes each). */
export const MAX_CACHED_ATTACHMENT_COUNTS = 50_000;

/**
 * Attachment counts by page, dropped on `attachment.changed` (every bind, unbind, upload into a
 * page and file deletion publishes the pages it touched) and `page.purged`.
 */
const attachmentCounts = perContext((context) => {
  const cache = new ReadCache<number, number>({ maxEntries: MAX_CACHED_ATTACHMENT_COUNTS });
  const drop = ({ pageIds }: { pageIds: number[] }) => {
    for (const id of pageIds) cache.drop(id);
  };
  context.bus.subscribe('attachment.changed', drop, { synchronous: true });
  context.bus.subscribe('page.purged', drop, { synchronous: true });
  return cache;
});

/** page/info's `attachment_count`. */
export function countPageAttachments(pageId: number): Promise<number> {
  return attachmentCounts().get(pageId, () => FilePage.countDocuments({ page_id: pageId }));
}

// ---------------------------------------------------------------------------------------------
// Start

/**
 * Plugs attachments into the process: the file storage (local disk under `dataDir` unless one
 * is given), the real page attachment count, and dropping the bindings of purged pages. Returns
 * the function that unplugs it all.
 */
export async function startAttachments(options: {
  dataDir: string;
  storage?: FileStorage;
}): Promise<() => void> {
  let storage = options.storage;
  if (!storage) {
    const local = localStorageFor(options.dataDir);
    await local.sweepStaging();
    storage = new SwitchingFileStorage(local, cloudResolver(local));
  }
  configureFileStorage(storage);
  setAttachmentCounter(countPageAttachments);
  const unsubscribe = events.subscribe('page.purged', async ({ pageIds }) => {
    await FilePage.deleteMany({ page_id: { $in: pageIds } });
  });
  return () => {
    unsubscribe();
    setAttachmentCounter(async () => 0);
    configureFileStorage(null);
  };
}
