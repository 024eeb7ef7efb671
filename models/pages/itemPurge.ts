/**
 * The pages side of purging a deleted item for good (models/backOffice runs the purge in one
 * transaction; these join it).
 */
import { Page, PageDraft, PageHistory, PageLock, Recycle, SinglePage } from './schemas';

/** Every page of the item, deleted ones too. */
export async function pageIdsOfItem(itemId: number): Promise<number[]> {
  return (await Page.find({ item_id: itemId }, { page_id: 1, _id: 0 }).lean()).map(
    (p) => p.page_id,
  );
}

/** The item's pages with their versions, locks, share links, drafts and recycle-bin entries. */
export async function purgeItemPages(itemId: number, pageIds: number[]): Promise<void> {
  const byPage = { page_id: { $in: pageIds } };
  const byItem = { item_id: itemId };
  await PageHistory.deleteMany(byPage);
  await PageLock.deleteMany(byPage);
  await SinglePage.deleteMany(byPage);
  await PageDraft.deleteMany({ $or: [byItem, byPage] });
  await Recycle.deleteMany({ $or: [byItem, byPage] });
  await Page.deleteMany(byItem);
}
