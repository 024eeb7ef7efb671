/**
 * Reading a file by its `sign` (`attachment/visitFile`, `common/visitFile`): who may, and the
 * visit it counts. ShowDoc served every file to anyone holding its URL; Quire asks where the
 * file lives:
 *   - its uploader and site admins may always read it;
 *   - a file attached to pages: whoever may read one of those pages (item visit rights incl. the
 *     `_item_pwd` password, the catalog restriction, drafts), or anyone when that page has an
 *     active public share link (the shared page shows its pictures and files);
 *   - a file uploaded to a page it is no longer attached to: as that page;
 *   - a file uploaded to an item only: whoever may visit the item;
 *   - a personal file (no item, no page): pictures are readable by link — ShowDoc's editor
 *     uploads pasted pictures that way and pages embed them — other files by the uploader only.
 * A file of a deleted page or item is therefore no longer served except to its uploader.
 */
import { isSiteAdmin, itemAccess, permits, type Actor } from '../access';
import {
  type ApiError,
  errors,
  fileStorage,
  isApiError,
  nowSeconds,
  type StoredFile,
} from '../platform';
import { servingOf } from './fileTypes';
import { monthOf } from './attachments';
import { activeShareKey, Page, requirePage } from '../pages';
import { FileFlow } from './schemas/fileFlow';
import { FilePage } from './schemas/filePage';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';

const SIGN_RULE = /^[0-9a-f]{32}$/i;
/** Pages of one file looked at when deciding access (a file is rarely on more). */
const MAX_PAGES_CHECKED = 50;

interface ReadOptions {
  itemPassword?: string;
  now?: number;
}

async function pageReadable(actor: Actor, pageId: number, options: ReadOptions): Promise<boolean> {
  try {
    await requirePage(actor, pageId, { action: 'page.read', itemPassword: options.itemPassword });
    return true;
  } catch (error) {
    if (!isApiError(error)) throw error;
  }
  if (!(await Page.exists({ page_id: pageId, is_del: 0 }))) return false;
  return (await activeShareKey(pageId, options.now ?? nowSeconds())) !== '';
}

/** Whether the actor may read the file. See the file comment for the rules. */
export async function mayReadFile(
  actor: Actor,
  file: Pick<UploadFileDoc, 'file_id' | 'uid' | 'item_id' | 'page_id' | 'file_type'>,
  options: ReadOptions = {},
): Promise<boolean> {
  if (actor.uid > 0 && (actor.uid === file.uid || isSiteAdmin(actor))) return true;
  const bindings = await FilePage.find({ file_id: file.file_id }, { page_id: 1, _id: 0 })
    .limit(MAX_PAGES_CHECKED)
    .lean();
  const pageIds = bindings.length
    ? bindings.map((b) => b.page_id)
    : file.page_id > 0
      ? [file.page_id]
      : [];
  if (pageIds.length) {
    for (const pageId of pageIds) if (await pageReadable(actor, pageId, options)) return true;
    return false;
  }
  if (file.item_id > 0) {
    const access = await itemAccess(actor, file.item_id, { itemPassword: options.itemPassword });
    return access ? permits(access, 'item.read') : false;
  }
  return servingOf(file.file_type).inline;
}

export interface FileVisit {
  file: UploadFileDoc;
  stored: StoredFile;
  contentType: string;
  inline: boolean;
}

function notFound(): ApiError {
  return errors.fileNotFound('File not found', { httpStatus: 404 });
}

/**
 * The file behind a sign, opened for the actor, with the visit counted (visit times, last visit,
 * the uploader's monthly traffic). 10602 (HTTP 404) for an unknown sign or missing bytes, 10302
 * (HTTP 403) when the actor may not read it. The caller must consume or destroy `stored.stream`.
 */
export async function openFileForVisit(
  actor: Actor,
  sign: string,
  options: ReadOptions = {},
): Promise<FileVisit> {
  if (!SIGN_RULE.test(sign)) throw notFound();
  const file = await UploadFile.findOne(
    { sign: sign.toLowerCase() },
    { _id: 0 },
  ).lean<UploadFileDoc>();
  if (!file || !file.storage_key) throw notFound();
  if (!(await mayReadFile(actor, file, options)))
    throw errors.noVisitPermission('No permission to read this file', { httpStatus: 403 });
  const stored = await fileStorage().open(file.storage_key);
  if (!stored) throw notFound();

  const now = options.now ?? nowSeconds();
  try {
    await UploadFile.updateOne(
      { file_id: file.file_id },
      { $inc: { visit_times: 1 }, $set: { last_visit_time: now } },
    );
    await FileFlow.updateOne(
      { uid: file.uid, date_month: monthOf(now) },
      { $inc: { used: stored.size } },
      { upsert: true },
    );
  } catch (error) {
    stored.stream.destroy();
    throw error;
  }
  return { file, stored, ...servingOf(file.file_type) };
}

export interface ExportedFile {
  sign: string;
  displayName: string;
  fileType: string;
  bytes: Buffer;
}

async function readAll(stored: StoredFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The files behind `signs` that the actor may read, for packing into an export (no visit is
 * counted: nobody looked at them yet). Unknown signs, unreadable files and missing bytes are
 * skipped; reading stops before the total would pass `maxBytes`.
 */
export async function filesForExport(
  actor: Actor,
  signs: string[],
  maxBytes: number,
): Promise<ExportedFile[]> {
  const wanted = [...new Set(signs.map((s) => s.toLowerCase()).filter((s) => SIGN_RULE.test(s)))];
  if (!wanted.length) return [];
  const files = await UploadFile.find({ sign: { $in: wanted } }, { _id: 0 }).lean<
    UploadFileDoc[]
  >();
  const out: ExportedFile[] = [];
  let total = 0;
  for (const file of files) {
    if (!file.storage_key || !(await mayReadFile(actor, file))) continue;
    if (total + Number(file.file_size ?? 0) > maxBytes) continue;
    const stored = await fileStorage().open(file.storage_key);
    if (!stored) continue;
    if (total + stored.size > maxBytes) {
      stored.stream.destroy();
      continue;
    }
    const bytes = await readAll(stored);
    total += bytes.length;
    out.push({ sign: file.sign, displayName: file.display_name, fileType: file.file_type, bytes });
  }
  return out;
}
