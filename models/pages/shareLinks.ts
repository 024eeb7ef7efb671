/**
 * Single-page share links (reference pages §3.2–3.3): `/p/<unique_key>` shows one page to anyone
 * holding the key, without login or visit password — that is the point of the link. Only editors
 * of the page's item (within their catalog restriction) may switch a page's link on or off;
 * switching it on always issues a fresh key, so an old link stops working.
 *
 * Read model: each page's link (or the fact it has none, which is most pages) is kept in memory
 * for page/info, dropped on `share.changed` (published by every write of share links) and
 * `page.purged`; expiry is compared on every read.
 */
import { randomBytes } from 'node:crypto';
import { publishable, type Actor } from '../access';
import { errors, events, nextId, noteExpiry, nowSeconds, perContext, ReadCache } from '../platform';
import { requirePage } from './pageAccess';
import { Item } from '../items';
import { Page, type PageDoc } from './schemas/page';
import { SinglePage } from './schemas/singlePage';

const DAY = 86_400;
/** Longest expiry accepted (ten years); 0 = never expires. */
export const MAX_EXPIRE_DAYS = 3650;
const KEY_RULE = /^[0-9a-f]{32}$/;

export interface ShareLink {
  unique_key: string;
  page_id: number;
  expire_time: number;
}

/** Pages whose share link (or its absence) is kept. */
export const MAX_CACHED_SHARE_LINKS = 50_000;

const shareLinkCache = perContext((context) => {
  const cache = new ReadCache<number, { unique_key: string; expire_time: number } | null>({
    maxEntries: MAX_CACHED_SHARE_LINKS,
  });
  context.bus.subscribe('share.changed', ({ pageId }) => cache.drop(pageId), { synchronous: true });
  context.bus.subscribe(
    'page.purged',
    ({ pageIds }) => {
      for (const id of pageIds) cache.drop(id);
    },
    { synchronous: true },
  );
  return cache;
});

function shareLinkChanged(pageId: number): void {
  events.publish('share.changed', { pageId });
}

/** The page's live key ('' when none); an expired link is removed on the way. */
export async function activeShareKey(pageId: number, now: number): Promise<string> {
  const row = await shareLinkCache().get(pageId, async () => {
    const found = await SinglePage.findOne(
      { page_id: pageId },
      { unique_key: 1, expire_time: 1, _id: 0 },
    ).lean();
    return found ? { unique_key: found.unique_key, expire_time: found.expire_time } : null;
  });
  if (!row) return '';
  if (row.expire_time > 0) noteExpiry(row.expire_time);
  if (row.expire_time > 0 && row.expire_time <= now) {
    await SinglePage.deleteOne({ page_id: pageId, unique_key: row.unique_key });
    shareLinkChanged(pageId);
    return '';
  }
  return row.unique_key;
}

/**
 * page/createSinglePage: removes the page's link, then (when `enable`) creates a new one expiring
 * after `expireDays` days (0 = never). Returns the new link, or null when switched off.
 */
export async function toggleShareLink(
  actor: Actor,
  input: { pageId: number; enable: boolean; expireDays: number },
  now = nowSeconds(),
): Promise<ShareLink | null> {
  if (!(input.pageId > 0)) throw errors.failed('Page does not exist');
  if (
    !Number.isSafeInteger(input.expireDays) ||
    input.expireDays < 0 ||
    input.expireDays > MAX_EXPIRE_DAYS
  )
    throw errors.failed(`expire_days must be 0 (never) to ${MAX_EXPIRE_DAYS}`);
  const { page } = await requirePage(actor, input.pageId, {
    action: 'page.update',
  });
  await SinglePage.deleteMany({ page_id: page.page_id });
  if (!input.enable) {
    shareLinkChanged(page.page_id);
    return null;
  }
  const link: ShareLink = {
    unique_key: randomBytes(16).toString('hex'),
    page_id: page.page_id,
    expire_time: input.expireDays > 0 ? now + input.expireDays * DAY : 0,
  };
  try {
    await SinglePage.create({ id: await nextId('single_page_id'), ...link });
  } finally {
    shareLinkChanged(page.page_id);
  }
  return link;
}

const LINK_MISSING = 'The share link has expired or does not exist';

/** page/infoByKey: the page behind a live share link (anyone; no visit check by design). */
export async function pageByShareKey(
  uniqueKey: string,
  now = nowSeconds(),
): Promise<{ page: PageDoc; expireTime: number }> {
  if (!uniqueKey) throw errors.failed('Parameter error');
  if (!KEY_RULE.test(uniqueKey)) throw errors.failed(LINK_MISSING);
  const row = await SinglePage.findOne(
    { unique_key: uniqueKey },
    { page_id: 1, expire_time: 1, _id: 0 },
  ).lean();
  if (!row) throw errors.failed(LINK_MISSING);
  if (row.expire_time > 0 && row.expire_time <= now) {
    await SinglePage.deleteOne({ unique_key: uniqueKey });
    shareLinkChanged(row.page_id);
    throw errors.failed('The share link has expired');
  }
  const page = await Page.findOne({ page_id: row.page_id, is_del: 0 }, { _id: 0 }).lean<PageDoc>();
  // A draft is not published, and a deleted item takes its links with it.
  const itemAlive =
    page && publishable(page) && (await Item.exists({ item_id: page.item_id, is_del: 0 }));
  if (!page || !itemAlive) throw errors.failed('Page does not exist');
  return { page, expireTime: row.expire_time };
}
