/**
 * Storing an upload (ShowDoc's `page/upload` and `page/uploadImg`, reference pages §3.13): who may
 * upload where, which names and contents are accepted, and the write of the file, its
 * `upload_file` row and its page binding.
 *
 * Permission: a login, and when the upload names a page, edit rights on the page's item with the
 * page visible to the uploader (catalog restriction, drafts); when it names only an item, edit
 * rights on the item. An upload naming neither is a personal file (ShowDoc's editor sends
 * pictures that way). ShowDoc checked nothing for pictures; Quire applies the same rule to both.
 *
 * Content: the client's name must pass the block- and allow-lists and the bytes must be what the
 * extension promises (models/fileTypes.ts). The stored name is made by the server; the client's
 * name survives only as a sanitised `display_name`. Nothing is written unless every check passed.
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { requireAction, type Actor } from '../access';
import { errors, events, fileStorage, newStorageKey, nextId, nowSeconds } from '../platform';
import {
  KIND_MIME,
  SNIFF_BYTES,
  checkFileName,
  contentMatches,
  detectKind,
  extensionForKind,
} from './fileTypes';
import { requirePage } from '../pages';
import { FilePage } from './schemas/filePage';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';
import { getSiteSettings } from '../settings';
import { queueTextExtraction } from './attachmentText';

export type UploadPurpose = 'file' | 'image';

/** Longest kept display name (characters); longer names keep their extension. */
export const MAX_DISPLAY_NAME = 200;

export interface UploadTarget {
  /** 0 = none. */
  itemId: number;
  /** 0 = none. */
  pageId: number;
}

// Control characters, and the Unicode marks that make a name display differently from what it is.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A client file name made safe to keep and show: no path (only what follows the last `/` or
 * `\`), no control or direction characters, no leading dots or surrounding blanks, at most
 * MAX_DISPLAY_NAME characters. '' when nothing is left.
 */
export function sanitizeDisplayName(raw: string): string {
  let name = String(raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(UNSAFE_CHARS, '').trim();
  name = name.replace(/^\.+/, '').replace(/[.\s]+$/, '');
  if (name.length > MAX_DISPLAY_NAME) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_DISPLAY_NAME - ext.length) + ext;
  }
  return name;
}

const NAME_REFUSALS = {
  blocked: 'This type of file may not be uploaded',
  'not-allowed': 'Files of this type cannot be uploaded; put it in a zip archive first',
  'no-extension': 'The file name needs an extension',
} as const;

/**
 * The display name a file will get, or 10604 when the name is refused. A picture without an
 * extension (a pasted `blob`) is accepted here and named after its content later.
 */
export function acceptFileName(raw: string, purpose: UploadPurpose): string {
  const name = sanitizeDisplayName(raw);
  const verdict = checkFileName(name, purpose);
  if (verdict.ok) return name;
  if (verdict.reason === 'no-extension' && purpose === 'image') return name || 'image';
  throw errors.fileTypeNotSupported(NAME_REFUSALS[verdict.reason]);
}

/**
 * Checks that the actor may upload to the target; returns the item and page the file will belong
 * to (the page's item wins; a different `item_id` is refused).
 */
export async function authorizeUpload(actor: Actor, target: UploadTarget): Promise<UploadTarget> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (target.pageId > 0) {
    const { page } = await requirePage(actor, target.pageId, {
      action: 'page.upload',
    });
    if (target.itemId > 0 && target.itemId !== page.item_id)
      throw errors.failed('The page does not belong to this item');
    return { itemId: page.item_id, pageId: page.page_id };
  }
  if (target.itemId > 0) {
    await requireAction(actor, 'file.upload', target.itemId);
    return { itemId: target.itemId, pageId: 0 };
  }
  if (target.itemId < 0 || target.pageId < 0) throw errors.failed('Parameter error');
  return { itemId: 0, pageId: 0 };
}

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface StoreUploadInput {
  target: UploadTarget;
  purpose: UploadPurpose;
  /** The client's file name, as sent. */
  clientName: string;
  /** The staged bytes (moved into the storage on success, left in place on refusal). */
  staged: { path: string; size: number };
  now?: number;
}

/** Checks everything again (authoritative), then stores the file. Returns its row. */
export async function storeUpload(actor: Actor, input: StoreUploadInput): Promise<UploadFileDoc> {
  const target = await authorizeUpload(actor, input.target);
  let displayName = acceptFileName(input.clientName, input.purpose);
  const { size } = input.staged;
  if (!(size > 0)) throw errors.failed('The file is empty');
  const { uploadMaxBytes } = await getSiteSettings();
  if (size > uploadMaxBytes) throw errors.fileTooLarge('The file is too large');

  const kind = detectKind(await readHead(input.staged.path));
  const verdict = checkFileName(displayName, input.purpose);
  const ext = verdict.ok ? verdict.ext : '';
  if (!kind || !contentMatches(ext, kind, input.purpose))
    throw errors.fileTypeNotSupported('The file content does not match its type');
  if (!ext) displayName = `${displayName}.${extensionForKind(kind)}`;

  const now = input.now ?? nowSeconds();
  const storage = fileStorage();
  const key = storage.newKey ? await storage.newKey() : newStorageKey();
  await storage.putFile(key, input.staged.path);
  const row: UploadFileDoc = {
    file_id: 0,
    sign: randomBytes(16).toString('hex'),
    display_name: displayName,
    file_type: KIND_MIME[kind],
    file_size: size,
    uid: actor.uid,
    item_id: target.itemId,
    page_id: target.pageId,
    visit_times: 0,
    addtime: now,
    real_url: '',
    storage_key: key,
    last_update_time: now,
    last_visit_time: 0,
  };
  try {
    row.file_id = await nextId('file_id');
    await UploadFile.create(row);
    if (target.pageId > 0)
      await FilePage.create({
        id: await nextId('file_page_id'),
        file_id: row.file_id,
        item_id: target.itemId,
        page_id: target.pageId,
        addtime: now,
      });
  } catch (error) {
    // Leave nothing half-made: the row (if written) and the bytes go.
    await UploadFile.deleteOne({ file_id: row.file_id, sign: row.sign });
    await storage.remove(key);
    throw error;
  }
  events.publish('attachment.changed', {
    fileId: row.file_id,
    uid: actor.uid,
    itemId: target.itemId,
    pageIds: target.pageId > 0 ? [target.pageId] : [],
    change: 'uploaded',
  });
  // In the background: the upload answers now, search finds the text once it is read.
  void queueTextExtraction(row);
  return row;
}
