/**
 * Page versions (reference pages §1.3, §3.6–3.8). Every update of a page first stores the version
 * it replaces; an item keeps the newest `history_version_count` versions per page (site setting,
 * default 20, read through models/settings.ts — ShowDoc's current server ignored it and kept 100).
 *
 * Reads need visit access to the page (with the catalog restriction, unlike ShowDoc); editing a
 * version's remark needs edit access and only touches versions of that very page.
 */
import type { Actor } from '../access';
import { errors } from '../platform';
import { requirePage } from './pageAccess';
import { DEFAULT_PAGE_ORDER, Page, type PageDoc } from './schemas/page';
import { PageHistory, type PageHistoryDoc } from './schemas/pageHistory';
import { getSiteSettings } from '../settings';
import { packVersionText, withVersionText } from './versionText';

export const MAX_REMARK_LENGTH = 1000;
/**
 * Versions past the newest `keep` are dropped by one save in this many, not by every one (as the
 * change log's trims, models/items/changeLog.ts): a stream of saves then skips the trim's delete
 * seven times in eight. Between trims a page holds up to seven versions more than `keep` at rest;
 * every reader (page/history, the MCP tools, the diff) lists only the newest `keep`.
 */
export const HISTORY_TRIM_EVERY = 8;

/** The `history_version_count` site setting (default 20). */
export async function historyVersionCount(): Promise<number> {
  return (await getSiteSettings()).historyVersionCount;
}

/**
 * Stores `previous` (the page as it was before a save, read by the very write that bumped its
 * `history_seq`) as version `id` of the page, and drops the versions past the newest `keep` in
 * the same breath when it is a trimming save (HISTORY_TRIM_EVERY), by their `version_seq` (one
 * journal flush for both, no query for the bound).
 * The first save of a page from before the sequence numbers its earlier versions first.
 */
export async function recordVersion(
  previous: PageDoc,
  planned: { id: number; keep: number },
): Promise<void> {
  const seq = (previous.history_seq ?? 0) + 1;
  const keep = Math.max(planned.keep, 1);
  await Promise.all([
    // Lean: the row is built here field by field (with the schema's defaults for fields rows
    // from older data may lack), so mongoose's document and validation add nothing.
    PageHistory.insertMany(
      [
        {
          page_history_id: planned.id,
          page_id: previous.page_id,
          item_id: previous.item_id,
          cat_id: previous.cat_id ?? 0,
          page_title: previous.page_title ?? '',
          ...packVersionText(previous.page_content ?? ''),
          page_comments: previous.page_comments ?? '',
          s_number: previous.s_number ?? DEFAULT_PAGE_ORDER,
          addtime: previous.addtime,
          author_uid: previous.author_uid ?? 0,
          author_username: previous.author_username ?? '',
          ext_info: previous.ext_info ?? '',
          version_seq: seq,
        },
      ],
      { lean: true },
    ),
    // Nothing to drop while the oldest stored version is among the newest `keep`; past that,
    // the first save drops the oldest, then one save in HISTORY_TRIM_EVERY all those past `keep`
    // (and the save that numbers a page's earlier versions, all of them past `keep` at once).
    (previous.history_seq === undefined
      ? numberEarlierVersions(previous.page_id).then((low) => ({ low, numbered: true }))
      : Promise.resolve({ low: previous.history_low ?? 1, numbered: false })
    ).then(({ low, numbered }) =>
      seq - keep >= low && (numbered || (seq - keep - low) % HISTORY_TRIM_EVERY === 0)
        ? PageHistory.deleteMany({ page_id: previous.page_id, version_seq: { $lte: seq - keep } })
        : undefined,
    ),
  ]);
}

/**
 * Versions stored before pages carried `history_seq` get 0, -1, -2, … newest first, so they
 * come before the page's first numbered version and the trims drop them in order; the page
 * keeps the lowest number (`history_low`) so its saves know to trim. Once per page. Resolves
 * with that lowest number (1 when there were none).
 */
async function numberEarlierVersions(pageId: number): Promise<number> {
  const earlier = await PageHistory.find(
    { page_id: pageId, version_seq: { $exists: false } },
    { page_history_id: 1, _id: 0 },
  )
    .sort({ page_history_id: -1 })
    .lean();
  if (!earlier.length) return 1;
  const low = 1 - earlier.length;
  await Promise.all([
    PageHistory.bulkWrite(
      earlier.map((row, i) => ({
        updateOne: {
          filter: { page_history_id: row.page_history_id },
          update: { $set: { version_seq: -i } },
        },
      })),
    ),
    Page.updateOne({ page_id: pageId }, { $min: { history_low: low } }),
  ]);
  return low;
}

export interface ReadOptions {
  itemPassword?: string;
}

/** A page's kept versions, newest first (page/history). */
export async function listVersions(
  actor: Actor,
  pageId: number,
  options: ReadOptions = {},
): Promise<PageHistoryDoc[]> {
  await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
  });
  const rows = await PageHistory.find({ page_id: pageId }, { _id: 0 })
    .sort({ page_history_id: -1 })
    .limit(await historyVersionCount())
    .lean<PageHistoryDoc[]>();
  return rows.map(withVersionText);
}

/** Sets the remark of one version of a page; false when the page has no such version. */
export async function updateVersionRemark(
  actor: Actor,
  input: { pageId: number; pageHistoryId: number; remark: string },
): Promise<boolean> {
  if (!(input.pageId > 0) || !(input.pageHistoryId > 0)) throw errors.failed('Parameter error');
  if (input.remark.length > MAX_REMARK_LENGTH)
    throw errors.failed(`Remark must be at most ${MAX_REMARK_LENGTH} characters`);
  await requirePage(actor, input.pageId, { action: 'page.update' });
  // Scoped to the page: ShowDoc matched the version id alone, so any editor could rewrite
  // remarks in other items.
  const result = await PageHistory.updateOne(
    { page_history_id: input.pageHistoryId, page_id: input.pageId },
    { $set: { page_comments: input.remark } },
  );
  return result.matchedCount > 0;
}

/** The current page and one of its versions (page/diff). */
export async function pageAndVersion(
  actor: Actor,
  pageId: number,
  pageHistoryId: number,
  options: ReadOptions = {},
): Promise<{ page: PageDoc; version: PageHistoryDoc }> {
  if (!(pageId > 0) || !(pageHistoryId > 0)) throw errors.failed('Parameter error');
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
  });
  const version = await PageHistory.findOne(
    { page_history_id: pageHistoryId, page_id: pageId },
    { _id: 0 },
  ).lean<PageHistoryDoc>();
  if (!version) throw errors.failed('History version does not exist');
  return { page, version: withVersionText(version) };
}
