/**
 * "Show changes": what changed in a page since a version the reader saw — by default the one
 * their marker names (the version read last), or `since` (the `addtime` of the version the reader
 * had on screen when a live save arrived). The older version is the newest kept history row saved
 * at or before that time; none (a page created since, or versions pruned) compares with an empty
 * page, so everything counts as added. Answers the changed blocks by their first source line, who
 * saved the versions in between and the history id the full diff screen opens with.
 */
import type { Actor } from '../access';
import { PageHistory, type PageHistoryDoc, requirePage, versionText } from '../pages';
import { errors } from '../platform';
import { changedBlocks, type ChangedBlock } from './blocks';
import { changedSinceRead, type Marker, readDoc } from './markers';

export interface PageChanges {
  changed: boolean;
  /** The `addtime` of the version compared with (0 when none is known). */
  since: number;
  /** The history row of that version, for `/page/diff/:page_id/:page_history_id` (0: none kept). */
  page_history_id: number;
  /** The current version: its time and last author. */
  addtime: number;
  author_uid: number;
  author_username: string;
  /** Everyone who saved a version after the one compared with, newest first. */
  authors: Array<{ uid: number; username: string }>;
  blocks: ChangedBlock[];
  removed: number;
}

export async function pageChanges(
  actor: Actor,
  pageId: number,
  options: { since?: number; itemPassword?: string } = {},
): Promise<PageChanges> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
  });
  const current = {
    addtime: page.addtime,
    author_uid: page.author_uid,
    author_username: page.author_username,
  };
  let since: number;
  let base: PageHistoryDoc | null;
  if (options.since && options.since > 0) {
    since = options.since;
    if (since >= page.addtime) return nothingChanged(since, current);
    base = await newestAtOrBefore(page.page_id, since);
  } else {
    const doc = await readDoc(actor.uid, page.item_id);
    const marker = doc?.pages?.[String(page.page_id)] as Marker | undefined;
    const markerTime = typeof marker === 'number' ? marker : (marker?.[0] ?? 0);
    if (!doc || !(await changedSinceRead(doc, [page])).size)
      return nothingChanged(markerTime, current);
    if (marker === undefined) {
      // Never read, saved since the reader follows the item: the version they could have seen.
      since = doc.since;
      base = await newestAtOrBefore(page.page_id, doc.since - 1);
    } else if (typeof marker === 'number') {
      since = marker;
      base = await newestAtOrBefore(page.page_id, marker);
    } else {
      // Read in the second it was saved: the version read is the first one stored after it.
      since = marker[0];
      base = await PageHistory.findOne(
        { page_id: page.page_id, page_history_id: { $gt: marker[1] } },
        { _id: 0 },
      )
        .sort({ page_history_id: 1 })
        .lean<PageHistoryDoc>();
    }
  }
  const later = await PageHistory.find(
    { page_id: page.page_id, ...(base ? { page_history_id: { $gt: base.page_history_id } } : {}) },
    { author_uid: 1, author_username: 1, _id: 0 },
  )
    .sort({ page_history_id: -1 })
    .lean();
  // A history row is a version as its author saved it: the versions after `base` are the rows
  // after it and the current page.
  const authors = new Map<number, string>([[page.author_uid, page.author_username]]);
  for (const row of later)
    if (!authors.has(row.author_uid)) authors.set(row.author_uid, row.author_username);
  const { blocks, removed } = await changedBlocks(base ? versionText(base) : '', page.page_content);
  return {
    changed: true,
    since,
    page_history_id: base?.page_history_id ?? 0,
    ...current,
    authors: [...authors].map(([uid, username]) => ({ uid, username })),
    blocks,
    removed,
  };
}

function nothingChanged(
  since: number,
  current: Pick<PageChanges, 'addtime' | 'author_uid' | 'author_username'>,
): PageChanges {
  return {
    changed: false,
    since,
    page_history_id: 0,
    ...current,
    authors: [],
    blocks: [],
    removed: 0,
  };
}

/** The newest kept version saved at or before `time`. */
function newestAtOrBefore(pageId: number, time: number): Promise<PageHistoryDoc | null> {
  return PageHistory.findOne({ page_id: pageId, addtime: { $lte: time } }, { _id: 0 })
    .sort({ page_history_id: -1 })
    .lean<PageHistoryDoc>();
}
