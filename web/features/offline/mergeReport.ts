/**
 * The merge report after reconnecting (issue #41): what happened to each page edited offline —
 * saved (and whether others changed it meanwhile, by whom), kept back because someone else holds
 * its lock, or failed — with links to the diff screen. Pure: the sync (sync.ts) gathers the
 * facts, this decides what they mean.
 */
import { unescapeHtml } from '../../markdown/unescape';
import { diffPath } from '../reader/paths';
import type { PendingPage } from './store';

/** The server's page as page/info reports it (the fields compared). */
export interface ServerVersion {
  addtime: string;
  author_username: string;
  /** HTML-escaped, as the API sends it. */
  page_content: string;
}

/** A page/history row (newest first, as the API lists them). */
export interface HistoryRow {
  page_history_id: string;
  page_content: string;
  author_username: string;
}

export type ReportRow =
  | {
      kind: 'saved';
      pageId: number;
      itemId: number;
      title: string;
      /** Someone saved the page after the version the offline edits started from. */
      changedOnline: boolean;
      /** Who saved the version found at reconnect ('' when not changed). */
      changedBy: string;
      /** Diff of the merged page against the version the offline edits started from. */
      sinceOfflineDiff: string | null;
      /** Diff of the merged page against the version others saved meanwhile. */
      onlineDiff: string | null;
    }
  | { kind: 'locked'; pageId: number; itemId: number; title: string; holder: string }
  | { kind: 'failed'; pageId: number; itemId: number; title: string; message: string };

/**
 * Whether the server's page moved on since the offline edits' base, and by whom: a newer save
 * time, or other text (two saves within one second share a time).
 */
export function changedMeanwhile(
  pending: Pick<PendingPage, 'baseAddtime' | 'baseContent'>,
  atReconnect: ServerVersion,
): { changed: boolean; by: string } {
  const changed =
    atReconnect.addtime !== pending.baseAddtime ||
    unescapeHtml(atReconnect.page_content) !== pending.baseContent;
  return { changed, by: changed ? atReconnect.author_username : '' };
}

/**
 * The saved page's row: `history` is read after the merged save, so its newest row is the version
 * that save replaced — the one others saved meanwhile when the page changed online — and the
 * version the offline edits started from is the newest row with the base text.
 */
export function savedRow(
  pending: PendingPage,
  atReconnect: ServerVersion,
  history: HistoryRow[],
): ReportRow {
  const { changed, by } = changedMeanwhile(pending, atReconnect);
  const base = history.find((row) => unescapeHtml(row.page_content) === pending.baseContent);
  const replaced = history[0];
  return {
    kind: 'saved',
    pageId: pending.pageId,
    itemId: pending.itemId,
    title: pending.title,
    changedOnline: changed,
    changedBy: by,
    sinceOfflineDiff: base
      ? diffPath(pending.pageId, base.page_history_id)
      : !changed && replaced
        ? diffPath(pending.pageId, replaced.page_history_id)
        : null,
    onlineDiff:
      changed && replaced && replaced !== base
        ? diffPath(pending.pageId, replaced.page_history_id)
        : null,
  };
}

/** Rows in the order the report lists them: conflicts to look at first, then the rest. */
export function orderRows(rows: ReportRow[]): ReportRow[] {
  const rank = (row: ReportRow) =>
    row.kind === 'locked' ? 0 : row.kind === 'failed' ? 1 : row.changedOnline ? 2 : 3;
  return [...rows].sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title));
}
