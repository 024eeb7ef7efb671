/**
 * The merge report's rules (web/features/offline/mergeReport.ts): when a page counts as changed
 * online while it was edited offline, which kept versions its diff links compare with, and the
 * order the report lists pages in.
 */
import { expect, test } from '@jest/globals';
import {
  changedMeanwhile,
  orderRows,
  savedRow,
  type HistoryRow,
  type ReportRow,
} from '../../web/features/offline/mergeReport';
import type { PendingPage } from '../../web/features/offline/store';

const pending: PendingPage = {
  pageId: 7,
  itemId: 3,
  title: 'Alpha',
  catId: 0,
  customId: '7',
  baseAddtime: '2026-11-29 10:00:00',
  baseContent: 'Say "hi" & <wave>',
  since: 0,
};
const escaped = 'Say &quot;hi&quot; &amp; &lt;wave&gt;';

const row = (id: string, content: string, author = 'someone'): HistoryRow => ({
  page_history_id: id,
  page_content: content,
  author_username: author,
});

test('a page is changed online when its save time or its text moved on since the base', () => {
  const same = { addtime: pending.baseAddtime, author_username: 'olive', page_content: escaped };
  expect(changedMeanwhile(pending, same)).toEqual({ changed: false, by: '' });
  expect(changedMeanwhile(pending, { ...same, addtime: '2026-11-29 10:05:00' })).toEqual({
    changed: true,
    by: 'olive',
  });
  // Saved within the same second: the text still tells.
  expect(changedMeanwhile(pending, { ...same, page_content: 'Other text' })).toEqual({
    changed: true,
    by: 'olive',
  });
});

test('a page nobody else changed links its diff to the version the offline edits started from', () => {
  const at = { addtime: pending.baseAddtime, author_username: 'me', page_content: escaped };
  // page/history re-escapes without quotes: the base is still recognised.
  const history = [row('41', 'Say "hi" &amp; &lt;wave&gt;'), row('40', 'older')];
  expect(savedRow(pending, at, history)).toEqual({
    kind: 'saved',
    pageId: 7,
    itemId: 3,
    title: 'Alpha',
    changedOnline: false,
    changedBy: '',
    sinceOfflineDiff: '/page/diff/7/41',
    onlineDiff: null,
  });
});

test('a page changed online meanwhile names who changed it and links both diffs', () => {
  const at = { addtime: '2026-11-29 10:07:00', author_username: 'eddie', page_content: 'Theirs' };
  const history = [row('52', 'Theirs', 'eddie'), row('51', escaped), row('50', 'older')];
  const saved = savedRow(pending, at, history);
  expect(saved).toMatchObject({
    changedOnline: true,
    changedBy: 'eddie',
    sinceOfflineDiff: '/page/diff/7/51',
    onlineDiff: '/page/diff/7/52',
  });
});

test('with the base version no longer kept, only the diff against the online version is offered', () => {
  const at = { addtime: '2026-11-29 10:07:00', author_username: 'eddie', page_content: 'Theirs' };
  const saved = savedRow(pending, at, [row('60', 'Theirs')]);
  expect(saved).toMatchObject({ sinceOfflineDiff: null, onlineDiff: '/page/diff/7/60' });
});

test('the report lists locked pages first, then failures, then merged conflicts, then the rest', () => {
  const base = { itemId: 1 };
  const rows: ReportRow[] = [
    {
      ...base,
      kind: 'saved',
      pageId: 1,
      title: 'B plain',
      changedOnline: false,
      changedBy: '',
      sinceOfflineDiff: null,
      onlineDiff: null,
    },
    {
      ...base,
      kind: 'saved',
      pageId: 2,
      title: 'Merged',
      changedOnline: true,
      changedBy: 'x',
      sinceOfflineDiff: null,
      onlineDiff: null,
    },
    { ...base, kind: 'failed', pageId: 3, title: 'Broken', message: 'gone' },
    { ...base, kind: 'locked', pageId: 4, title: 'Held', holder: 'rita' },
    {
      ...base,
      kind: 'saved',
      pageId: 5,
      title: 'A plain',
      changedOnline: false,
      changedBy: '',
      sinceOfflineDiff: null,
      onlineDiff: null,
    },
  ];
  expect(orderRows(rows).map((r) => r.pageId)).toEqual([4, 3, 2, 5, 1]);
});
