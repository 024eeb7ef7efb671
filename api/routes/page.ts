/**
 * `page/*` (reference pages §3): reading, saving, deleting, sharing and ordering pages. Versions
 * are in pageHistory.ts and locks in pageLock.ts (same controller). The rules live in
 * models/pages/savePage.ts, models/pages/shareLinks.ts and models/pages/sqlTable.ts; this file reads parameters the
 * ShowDoc way and shapes answers as ShowDoc did.
 */
import { errors, formatUnix } from '../../models/platform';
import {
  phpUrlDecode,
  unescapeFromClient,
  countAttachments,
  deletePage,
  readPage,
  resolvePageId,
  savePage,
  sortPages,
  pageByShareKey,
  toggleShareLink,
  sqlToMarkdownTable,
} from '../../models/pages';
import { countOpenSuggestions } from '../../models/suggestions';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { pageContract } from '../contracts';
import { defineController } from '../registry';
import { pageRow, pageRowForReader } from './pagePresent';

/** `pages` of page/sort: a JSON object (maybe HTML-escaped) or a form map `pages[<id>]=<n>`. */
function sortOrders(pages: unknown): Map<number, number> {
  let value = pages;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(unescapeFromClient(value));
    } catch {
      return new Map(); // ShowDoc: invalid JSON is a successful no-op
    }
  }
  const orders = new Map<number, number>();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return orders;
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const pageId = Number(key);
    const order =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)
          ? Number(raw)
          : NaN;
    if (Number.isSafeInteger(pageId) && pageId > 0 && Number.isSafeInteger(order) && order >= 0)
      orders.set(pageId, order);
  }
  return orders;
}

export const pageController = defineController('page', pageContract, {
  async info(ctx) {
    const { actor } = await optionalLogin(ctx);
    const details = await readPage(actor, ctx.input.page_id, {
      itemPassword: itemPassword(ctx),
      withPath: ctx.input.with_path,
    });
    // Counted once the page is known readable: an unreadable page's answer is an error.
    const suggestionCount = await countOpenSuggestions(details.page.page_id);
    const row: Record<string, unknown> = {
      ...pageRowForReader(details.page),
      attachment_count: details.attachmentCount,
      unique_key: details.uniqueKey,
      // The version's time as a number: what the reader reports for read markers (models/readMarkers).
      addtime_unix: details.page.addtime,
      // Quire's suggest mode: the reader loads the suggestions only when there are some.
      suggestion_count: suggestionCount,
    };
    if (details.fullPath)
      row.full_path = details.fullPath.map((step) =>
        'cat_id' in step
          ? { cat_id: String(step.cat_id), cat_name: step.cat_name }
          : { page_id: String(step.page_id), page_title: step.page_title },
      );
    return row;
  },

  async infoByKey(ctx) {
    const { page, expireTime } = await pageByShareKey(ctx.input.unique_key.trim());
    // A public link does not reveal where the page sits in its item.
    const { item_id: _item, cat_id: _cat, ...row } = pageRow(page, { times: 'raw' });
    return {
      ...row,
      addtime: formatUnix(page.addtime),
      attachment_count: await countAttachments(page.page_id),
      expire_time: expireTime,
    };
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const input = ctx.input;
    // ShowDoc checks for empty content before URL-decoding it.
    let content = input.page_content;
    if (content === '') throw errors.failed('Saving empty content is not allowed');
    if (input.is_urlencode) content = phpUrlDecode(content);
    const { page, created } = await savePage(
      actor,
      {
        pageId: input.page_id,
        itemId: input.item_id,
        title: input.page_title,
        content,
        remark: input.page_comments,
        catId: input.cat_id,
        sNumber: input.s_number,
        isDraft: input.is_draft,
        extInfo: input.ext_info,
        customId: input.page_custom_id?.trim(),
        notify: input.is_notify ? { content: input.notify_content } : null,
      },
      { origin: 'rest' },
    );
    if (created) return { page_id: page.page_id };
    return pageRow(page, { times: 'raw' });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deletePage(actor, ctx.input.page_id);
    return [];
  },

  async createSinglePage(ctx) {
    const { actor } = await optionalLogin(ctx);
    const link = await toggleShareLink(actor, {
      pageId: ctx.input.page_id,
      // Only the literal string "true" switches the link on (ShowDoc's client sends it so).
      enable: ctx.input.isCreateSiglePage === 'true',
      expireDays: ctx.input.expire_days,
    });
    return link ?? [];
  },

  async getPageID(ctx) {
    const { actor } = await optionalLogin(ctx);
    const ids = await resolvePageId(actor, {
      pageId: ctx.input.page_id,
      itemId: ctx.input.item_id,
      customId: ctx.input.page_custom_id.trim(),
      itemPassword: itemPassword(ctx),
    });
    return { page_id: String(ids.page_id), page_custom_id: ids.page_custom_id };
  },

  async sort(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.input.item_id;
    if (!(itemId > 0) || ctx.input.pages === undefined) throw errors.failed('Parameter error');
    await sortPages(actor, itemId, sortOrders(ctx.input.pages));
    return [];
  },

  async sqlToMarkdownTable(ctx) {
    // ShowDoc let anyone feed its parser; Quire asks for a login (the editor always has one).
    await requireLogin(ctx);
    return { markdown: await sqlToMarkdownTable(ctx.input.sql) };
  },
});
