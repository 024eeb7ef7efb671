/**
 * The files side of purging a deleted item for good (models/backOffice runs the purge in one
 * transaction). Uploaded files of the item (uploaded into it, or bound to its pages) are deleted
 * only when no page of another item still uses them (bound to it, or naming its sign in its
 * content); a kept file loses its bindings to this item's pages and, if it was uploaded into this
 * item, moves to the item that still uses it.
 */
import { Page } from '../pages';
import { events, fileStorage } from '../platform';
import { FilePage, UploadFile, type UploadFileDoc } from './schemas';

export interface PurgedFiles {
  deletedFiles: UploadFileDoc[];
  /** Kept files: the pages they lost, and the item that still uses them (their new home). */
  unboundFiles: Array<{ file: UploadFileDoc; pageIds: number[]; heir: number }>;
}

/** Files to delete (nothing elsewhere uses them) and files to keep (only their bindings go). */
async function sortFiles(itemId: number, pageIds: number[]): Promise<PurgedFiles> {
  const bindings = await FilePage.find(
    { page_id: { $in: pageIds } },
    { file_id: 1, page_id: 1, _id: 0 },
  ).lean();
  const fileIds = [...new Set(bindings.map((b) => b.file_id))];
  const files = await UploadFile.find(
    { $or: [{ item_id: itemId }, { file_id: { $in: fileIds } }] },
    { _id: 0 },
  ).lean<UploadFileDoc[]>();
  const deletedFiles: UploadFileDoc[] = [];
  const unboundFiles: PurgedFiles['unboundFiles'] = [];
  for (const file of files) {
    const ownPages = bindings.filter((b) => b.file_id === file.file_id).map((b) => b.page_id);
    const boundElsewhere = await FilePage.findOne(
      { file_id: file.file_id, page_id: { $nin: pageIds } },
      { item_id: 1, _id: 0 },
    ).lean();
    const namedElsewhere =
      !boundElsewhere && file.sign
        ? await Page.findOne(
            {
              item_id: { $ne: itemId },
              page_content: { $regex: file.sign.replace(/[^0-9a-zA-Z]/g, '') },
            },
            { item_id: 1, _id: 0 },
          ).lean()
        : null;
    const user = boundElsewhere ?? namedElsewhere;
    if (user) unboundFiles.push({ file, pageIds: ownPages, heir: user.item_id ?? 0 });
    else deletedFiles.push(file);
  }
  return { deletedFiles, unboundFiles };
}

/**
 * The item's file rows: bindings go, unused files go, kept files move to their heir. Run before
 * the item's pages go (a file named in another item's page is kept).
 */
export async function purgeItemFiles(itemId: number, pageIds: number[]): Promise<PurgedFiles> {
  const files = await sortFiles(itemId, pageIds);
  await FilePage.deleteMany({ $or: [{ item_id: itemId }, { page_id: { $in: pageIds } }] });
  await UploadFile.deleteMany({ file_id: { $in: files.deletedFiles.map((f) => f.file_id) } });
  for (const { file, heir } of files.unboundFiles)
    if (file.item_id === itemId)
      await UploadFile.updateOne({ file_id: file.file_id }, { $set: { item_id: heir } });
  return files;
}

/** After the purge committed: the deleted files' bytes go. */
export async function removePurgedBytes(purged: PurgedFiles): Promise<void> {
  for (const file of purged.deletedFiles) {
    if (!file.storage_key) continue;
    // The rows are gone already: bytes left behind are only wasted space, never served, and
    // failing the call now would report an item that is gone as still there.
    await fileStorage()
      .remove(file.storage_key)
      .catch(() => undefined);
  }
}

/** After the purge committed: every deleted or unbound file is announced. */
export function announcePurgedFiles(purged: PurgedFiles): void {
  for (const { file, change, pageIds } of [
    ...purged.deletedFiles.map((file) => ({ file, change: 'deleted' as const, pageIds: [] })),
    ...purged.unboundFiles
      .filter((u) => u.pageIds.length)
      .map((u) => ({ file: u.file, pageIds: u.pageIds, change: 'unbound' as const })),
  ])
    events.publish('attachment.changed', {
      fileId: file.file_id,
      uid: file.uid,
      itemId: file.item_id,
      pageIds,
      change,
    });
}
