/** The comments and feedback of an item being purged (inside models/backOffice's transaction). */
import { PageComment, PageFeedback } from './schemas';

export async function purgeItemComments(itemId: number, pageIds: number[]): Promise<void> {
  const of = { $or: [{ item_id: itemId }, { page_id: { $in: pageIds } }] };
  await PageComment.deleteMany(of);
  await PageFeedback.deleteMany(of);
}
