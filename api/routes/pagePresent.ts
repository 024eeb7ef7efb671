/**
 * Page rows as ShowDoc answered them (reference pages §0.2, §3): every column a string (its
 * database layer returned strings), times raw or formatted per endpoint, and content HTML-escaped
 * on the way out — Quire stores raw Markdown and ShowDoc's clients un-escape once (see
 * models/pages/pageContent.ts).
 */
import { escapeForClient, type PageDoc, type PageHistoryDoc } from '../../models/pages';
import { formatUnix, RawJson } from '../../models/platform';

export interface PageRowOptions {
  /** `formatted` = `YYYY-MM-DD HH:MM:SS` (page/info), `raw` = Unix seconds string (save, diff). */
  times: 'formatted' | 'raw';
}

/** The `page` row: ShowDoc's columns (the article ID is page/getPageID's, as in the hosted edition). */
export function pageRow(page: PageDoc, options: PageRowOptions) {
  return rowWithContent(page, options, escapeForClient(page.page_content));
}

function rowWithContent<C>(page: PageDoc, options: PageRowOptions, content: C) {
  const formatted = options.times === 'formatted';
  return {
    page_id: String(page.page_id),
    author_uid: String(page.author_uid),
    author_username: page.author_username,
    item_id: String(page.item_id),
    cat_id: String(page.cat_id),
    page_title: page.page_title,
    page_content: content,
    s_number: String(page.s_number),
    addtime: formatted ? formatUnix(page.addtime) : String(page.addtime),
    page_addtime: formatted
      ? formatUnix(page.page_addtime || page.addtime)
      : String(page.page_addtime),
    page_comments: page.page_comments,
    is_del: String(page.is_del),
    ext_info: page.ext_info,
    is_draft: String(page.is_draft),
  };
}

const contentJson = new WeakMap<PageDoc, RawJson<string>>();

/**
 * The `page` row with its content already as escaped JSON text (page/info, the hottest read):
 * a kept page is frozen and shared by every request, so its escaped text is serialised once and
 * the envelope splices the bytes in (api/envelope.ts) instead of escaping and serialising ~3 KB
 * again per read. A page not kept (loaded in a transaction, so not frozen) is escaped as usual.
 */
export function pageRowForReader(page: PageDoc) {
  const options: PageRowOptions = { times: 'formatted' };
  if (!Object.isFrozen(page)) return pageRow(page, options);
  let content = contentJson.get(page);
  if (!content) {
    content = new RawJson<string>(JSON.stringify(escapeForClient(page.page_content)));
    contentJson.set(page, content);
  }
  return rowWithContent(page, options, content);
}

/** A `page_history` row; `page/history` escapes content without quotes, as ShowDoc did. */
export function historyRow(row: PageHistoryDoc, options: PageRowOptions & { quotes: boolean }) {
  return {
    page_history_id: String(row.page_history_id),
    page_id: String(row.page_id),
    item_id: String(row.item_id),
    cat_id: String(row.cat_id),
    page_title: row.page_title,
    page_content: escapeForClient(row.page_content, { quotes: options.quotes }),
    page_comments: row.page_comments,
    s_number: String(row.s_number),
    addtime: options.times === 'formatted' ? formatUnix(row.addtime) : String(row.addtime),
    author_uid: String(row.author_uid),
    author_username: row.author_username,
    ext_info: row.ext_info,
  };
}
