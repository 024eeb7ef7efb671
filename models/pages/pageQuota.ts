/**
 * The per-item page quota (spec 001 §3 "Page lock: … exceed", §8 "Page quota exceeded on a new
 * page"): a site setting of the back office (`page_quota`, 0 = no limit, the default). ShowDoc's
 * open-source server never limits pages; its hosted edition reports a full item as `exceed` in
 * `page/isLock`, and its editor then explains the limit instead of opening a new page. Quire
 * reports it the same way and also refuses the new page itself, so no client can pass the limit.
 */
import { errors } from '../platform';
import { getSiteSettings } from '../settings';
import { Page } from './schemas/page';

/** Whether the item already holds as many pages as the quota allows (false with no quota). */
export async function pageQuotaReached(itemId: number): Promise<boolean> {
  const { pageQuota } = await getSiteSettings();
  if (pageQuota === null) return false;
  return (await Page.countDocuments({ item_id: itemId, is_del: 0 })) >= pageQuota;
}

/** Refuses a new page in a full item (hosted ShowDoc's wording). */
export async function checkPageQuota(itemId: number): Promise<void> {
  if (await pageQuotaReached(itemId))
    throw errors.failed('The page count of this project has reached the limit');
}
