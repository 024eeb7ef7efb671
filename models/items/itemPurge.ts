/**
 * `adminItem/hardDeleteItem`: removes an item that is already in the admin recycle bin for good,
 * with everything it owns, as ShowDoc's `Item::deleteItem` did (ShowDoc refuses live items with
 * 10101 too). Every row goes in one transaction, so a crash never leaves pages of an item that is
 * gone; file bytes (not transactional) and the domain events follow the commit.
 *
 * Uploaded files of the item (uploaded into it, or bound to its pages) are deleted only when no
 * page of another item still uses them (bound to it, or naming its sign in its content); a kept
 * file loses its bindings to this item's pages and, if it was uploaded into this item, moves to
 * the item that still uses it.
 */
import { requireSiteAdmin, type Actor } from '../access';
import { Catalog } from '../catalogs/schemas';
import { PageComment, PageFeedback } from '../comments/schemas';
import { FilePage, UploadFile, type UploadFileDoc } from '../files/schemas';
import { ItemMember, TeamItem, TeamItemMember } from '../members/schemas';
import { Mock } from '../mocks/schemas';
import { Subscription } from '../notices/schemas';
import { Page, PageDraft, PageHistory, PageLock, Recycle, SinglePage } from '../pages/schemas';
import { PageRead } from '../readMarkers/schemas';
import { errors, events, fileStorage, connection } from '../platform';
import { TemplateItem } from '../templates';
import {
  Item,
  ItemChangeLog,
  ItemGroup,
  ItemStar,
  ItemToken,
  ItemTop,
  type ItemDoc,
} from './schemas';

interface Purged {
  pageIds: number[];
  memberUids: number[];
  deletedFiles: UploadFileDoc[];
  /** Kept files: the pages they lost, and the item that still uses them (their new home). */
  unboundFiles: Array<{ file: UploadFileDoc; pageIds: number[]; heir: number }>;
}

/** Files to delete (nothing elsewhere uses them) and files to keep (only their bindings go). */
async function sortFiles(
  itemId: number,
  pageIds: number[],
): Promise<Pick<Purged, 'deletedFiles' | 'unboundFiles'>> {
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
  const unboundFiles: Purged['unboundFiles'] = [];
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

/** Takes the item's id out of every user's item groups (`item_ids` is a comma list). */
async function dropFromGroups(itemId: number): Promise<void> {
  const id = String(itemId);
  const groups = await ItemGroup.find(
    { item_ids: { $regex: `(^|,)${id}(,|$)` } },
    { id: 1, item_ids: 1, _id: 0 },
  ).lean();
  for (const group of groups) {
    const rest = group.item_ids.split(',').filter((part) => part.trim() !== id);
    await ItemGroup.updateOne({ id: group.id }, { $set: { item_ids: rest.join(',') } });
  }
}

async function purgeRows(item: ItemDoc): Promise<Purged> {
  const itemId = item.item_id;
  const pageIds = (await Page.find({ item_id: itemId }, { page_id: 1, _id: 0 }).lean()).map(
    (p) => p.page_id,
  );
  const members = await ItemMember.find({ item_id: itemId }, { uid: 1, _id: 0 }).lean();
  const teamMembers = await TeamItemMember.find(
    { item_id: itemId },
    { member_uid: 1, _id: 0 },
  ).lean();
  const memberUids = [
    ...new Set([...members.map((m) => m.uid), ...teamMembers.map((m) => m.member_uid)]),
  ];
  const files = await sortFiles(itemId, pageIds);
  const byPage = { page_id: { $in: pageIds } };
  const byItem = { item_id: itemId };
  await PageHistory.deleteMany(byPage);
  await PageLock.deleteMany(byPage);
  await SinglePage.deleteMany(byPage);
  await PageDraft.deleteMany({ $or: [byItem, byPage] });
  await Recycle.deleteMany({ $or: [byItem, byPage] });
  await Subscription.deleteMany({ object_type: 'page', object_id: { $in: pageIds } });
  await PageComment.deleteMany({ $or: [byItem, byPage] });
  await PageFeedback.deleteMany({ $or: [byItem, byPage] });
  await Mock.deleteMany({ $or: [byItem, byPage] });
  await FilePage.deleteMany({ $or: [byItem, byPage] });
  await UploadFile.deleteMany({ file_id: { $in: files.deletedFiles.map((f) => f.file_id) } });
  for (const { file, heir } of files.unboundFiles)
    if (file.item_id === itemId)
      await UploadFile.updateOne({ file_id: file.file_id }, { $set: { item_id: heir } });
  await Page.deleteMany(byItem);
  await Catalog.deleteMany(byItem);
  await ItemMember.deleteMany(byItem);
  await TeamItemMember.deleteMany(byItem);
  await TeamItem.deleteMany(byItem);
  await ItemStar.deleteMany(byItem);
  await ItemTop.deleteMany(byItem);
  await PageRead.deleteMany(byItem);
  await ItemToken.deleteMany(byItem);
  await ItemChangeLog.deleteMany(byItem);
  await TemplateItem.deleteMany(byItem);
  await dropFromGroups(itemId);
  await Item.deleteOne({ item_id: itemId, is_del: 1 });
  return { pageIds, memberUids, ...files };
}

export async function adminHardDeleteItem(actor: Actor, itemId: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
  const purged = await connection().transaction(async () => {
    const item = await Item.findOne({ item_id: itemId }, { _id: 0 }).lean<ItemDoc>();
    if (!item || item.is_del !== 1)
      throw errors.failed('Only a deleted item can be deleted permanently');
    return purgeRows(item);
  });
  for (const file of purged.deletedFiles) {
    if (!file.storage_key) continue;
    // The rows are gone already: bytes left behind are only wasted space, never served, and
    // failing the call now would report an item that is gone as still there.
    await fileStorage()
      .remove(file.storage_key)
      .catch(() => undefined);
  }
  const byUid = actor.uid;
  events.publish('item.changed', { itemId, change: 'deleted', byUid });
  if (purged.pageIds.length) events.publish('page.purged', { itemId, pageIds: purged.pageIds });
  if (purged.memberUids.length)
    events.publish('membership.changed', {
      itemId,
      uids: purged.memberUids,
      change: 'removed',
      byUid,
    });
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
