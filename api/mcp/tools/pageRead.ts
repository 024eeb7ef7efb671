/**
 * Page reading tools (ShowDoc's PageHandler): list, get, batch get, search and templates, through
 * models/pages and models/search under the token's Actor (drafts and catalog restrictions hold).
 */
import { catalogParents, catalogVisible } from '../../../models/access';
import { Item } from '../../../models/items';
import { countAttachments, pageByShareKey, readPage } from '../../../models/pages';
import { Page, type PageDoc } from '../../../models/pages';
import { formatUnix } from '../../../models/platform';
import { searchPages } from '../../../models/search';
import { asToolError, attempt, itemFor, pageFor } from '../access';
import {
  arrayArg,
  enumArg,
  idArg,
  intArg,
  optionalIdArg,
  optionalStringArg,
  stringArg,
} from '../args';
import { contentHash } from '../pageWrite';
import { integer, objectSchema, string } from '../schema';
import { PAGE_TEMPLATES } from './pageTemplates';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';

const SEARCH_MODES = ['title', 'content', 'all'] as const;
const MAX_SEARCH_RESULTS = 50;

/** get_page's answer for a page the caller may read. */
async function pageAnswer(caller: McpCaller, page: PageDoc, itemType: number) {
  const content = page.page_content ?? '';
  return {
    page_id: page.page_id,
    page_title: page.page_title,
    item_id: page.item_id,
    cat_id: page.cat_id,
    type: itemType === 3 ? 'runapi' : 'markdown',
    page_content: content,
    content,
    content_hash: contentHash(content),
    s_number: page.s_number,
    addtime: formatUnix(page.addtime),
    author_uid: page.author_uid,
    author_username: page.author_username,
    attachment_count: await countAttachments(page.page_id),
    page_url: `${caller.baseUrl}/${page.item_id}/${page.page_id}`,
  };
}

async function getPage(caller: McpCaller, args: Record<string, unknown>) {
  const pageId = optionalIdArg(args, 'page_id');
  const itemId = optionalIdArg(args, 'item_id');
  const title = optionalStringArg(args, 'page_title').trim();
  const uniqueKey = optionalStringArg(args, 'unique_key').trim();
  if (!pageId && !(itemId && title) && !uniqueKey)
    throw new McpToolError(
      MCP_ERRORS.INVALID_PARAMS,
      'Give page_id, item_id + page_title, or unique_key',
    );
  if (!pageId && uniqueKey) {
    // A live share link opens its page to anyone (ShowDoc: no membership check on this path).
    const { page } = await pageByShareKey(uniqueKey).catch(() => {
      throw new McpToolError(
        MCP_ERRORS.RESOURCE_NOT_FOUND,
        'The share link behind unique_key does not exist or has expired',
      );
    });
    const item = await itemTypeOf(page.item_id);
    return pageAnswer(caller, page, item);
  }
  let id = pageId;
  if (!id) {
    const access = await itemFor(caller, itemId, 'read');
    const candidates = await Page.find(
      { item_id: itemId, page_title: title, is_del: 0 },
      { _id: 0 },
    )
      .sort({ page_id: 1 })
      .lean<PageDoc[]>();
    const parents = access.catalogRestriction ? await catalogParents(itemId) : null;
    const found = candidates.find(
      (p) =>
        (!p.is_draft || p.author_uid === caller.actor.uid) &&
        (!parents || catalogVisible(access, p.cat_id, parents)),
    );
    if (!found) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Page not found');
    id = found.page_id;
  }
  const { access } = await pageFor(caller, id, 'read');
  const { page } = await attempt(() => readPage(caller.actor, id));
  return pageAnswer(caller, page, access.item.item_type || 1);
}

async function itemTypeOf(itemId: number): Promise<number> {
  const item = await Item.findOne({ item_id: itemId }, { item_type: 1, _id: 0 }).lean();
  return item?.item_type || 1;
}

export const pageReadTools = defineTools(
  {
    name: 'list_pages',
    description:
      'List the pages of an item or of one catalog (paged, without content). For kanban items (item_type=6) use kanban_get_board / kanban_list_tasks; for RunApi items (item_type=3) use get_runapi_page. A single-page item (item_type=2) lists its one page: call list_pages for its page_id, then get_page',
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID'),
        cat_id: integer('Catalog ID (optional)'),
        page: integer('Page number (default 1)'),
        page_size: integer('Pages per page (default 50, at most 100)'),
      },
      ['item_id'],
    ),
    write: false,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const access = await itemFor(caller, itemId, 'read');
      const catId = optionalIdArg(args, 'cat_id');
      const pageNo = Math.max(1, intArg(args, 'page', 1, 0));
      const pageSize = Math.min(100, Math.max(1, intArg(args, 'page_size', 50, 0)));
      const all = await Page.find(
        { item_id: itemId, is_del: 0, ...(catId > 0 ? { cat_id: catId } : {}) },
        { page_content: 0, _id: 0 },
      )
        .sort({ s_number: 1, page_id: 1 })
        .lean<PageDoc[]>();
      const parents = access.catalogRestriction ? await catalogParents(itemId) : null;
      const visible = all.filter(
        (p) =>
          (!p.is_draft || p.author_uid === caller.actor.uid) &&
          (!parents || catalogVisible(access, p.cat_id, parents)),
      );
      const pages = visible.slice((pageNo - 1) * pageSize, pageNo * pageSize).map((p) => ({
        page_id: p.page_id,
        page_title: p.page_title,
        item_id: p.item_id,
        cat_id: p.cat_id,
        s_number: p.s_number,
        addtime: p.addtime,
        author_uid: p.author_uid,
        author_username: p.author_username,
      }));
      return {
        item_id: itemId,
        cat_id: catId,
        pages,
        total: visible.length,
        page: pageNo,
        page_size: pageSize,
      };
    },
  },
  {
    name: 'get_page',
    description:
      'Get a page with its page_content and page_url (a link to share). Find it by page_id, by item_id + page_title, or by unique_key (a single-page share link). For kanban items (item_type=6) use kanban_get_task; for RunApi items (item_type=3) use get_runapi_page',
    inputSchema: objectSchema({
      page_id: integer('Page ID'),
      item_id: integer('Item ID (with page_title)'),
      page_title: string('Page title (with item_id)'),
      unique_key: string('The key of a single-page share link'),
    }),
    write: false,
    handler: getPage,
  },
  {
    name: 'batch_get_pages',
    description: 'Get several pages at once (at most 10)',
    inputSchema: objectSchema(
      {
        page_ids: {
          type: 'array',
          items: { type: 'integer' },
          description: 'Page IDs (at most 10)',
        },
      },
      ['page_ids'],
    ),
    write: false,
    async handler(caller, args) {
      const ids = arrayArg(args, 'page_ids', 100).slice(0, 10);
      const pages = [];
      for (const raw of ids) {
        const pageId = Number(raw);
        try {
          const data = await getPage(caller, { page_id: raw });
          pages.push({ status: 'success', page_id: pageId, data });
        } catch (error) {
          pages.push({ status: 'failed', page_id: pageId, error: asToolError(error).message });
        }
      }
      return { pages, total: pages.length };
    },
  },
  {
    name: 'search_pages',
    description:
      'Search pages by keywords (titles only by default). For kanban items (item_type=6) use kanban_search_tasks; RunApi pages (item_type=3) are found here too',
    inputSchema: objectSchema(
      {
        query: string('Keywords'),
        item_id: integer('Item ID (optional: limits the search to one item)'),
        search_mode: string(
          'Search mode: title (default, titles only), content (content only), all (titles and content)',
          { enum: [...SEARCH_MODES] },
        ),
      },
      ['query'],
    ),
    write: false,
    async handler(caller, args) {
      const query = stringArg(args, 'query', 500).trim();
      const mode = enumArg(args, 'search_mode', SEARCH_MODES, 'title');
      return search(caller, query, optionalIdArg(args, 'item_id'), mode, MAX_SEARCH_RESULTS);
    },
  },
  {
    name: 'search_all_pages',
    description:
      "Search pages in every item the user can access, without naming an item (for 'I do not know which item it is in'). Titles only by default (fast); content/all also search the text",
    inputSchema: objectSchema(
      {
        keywords: string('Keywords (space-separated keywords match any of them)'),
        mode: string(
          'Search mode: title (default, titles only, fast), content (content only), all (titles and content)',
          { enum: [...SEARCH_MODES] },
        ),
        limit: integer('Most results to return (optional, default 20, at most 50)'),
      },
      ['keywords'],
    ),
    write: false,
    async handler(caller, args) {
      const keywords = stringArg(args, 'keywords', 500).trim();
      const mode = enumArg(args, 'mode', SEARCH_MODES, 'title');
      let limit = intArg(args, 'limit', 20, 0);
      if (limit <= 0) limit = 20;
      return search(caller, keywords, 0, mode, Math.min(limit, MAX_SEARCH_RESULTS));
    },
  },
  {
    name: 'get_page_template',
    description: 'Get a document template (api, runapi_comment, database or general)',
    inputSchema: objectSchema({
      type: string('Template type: api, runapi_comment, database, general'),
    }),
    write: false,
    async handler(_caller, args) {
      const type = optionalStringArg(args, 'type', 'api') || 'api';
      const template = PAGE_TEMPLATES[type as keyof typeof PAGE_TEMPLATES] ?? PAGE_TEMPLATES.api;
      return { type, template };
    },
  },
);

/** search_pages / search_all_pages: each keyword through models/search, filtered by mode. */
async function search(
  caller: McpCaller,
  query: string,
  itemId: number,
  mode: (typeof SEARCH_MODES)[number],
  limit: number,
) {
  const keywords = [...new Set(query.split(/\s+/).filter(Boolean))].slice(0, 10);
  if (!keywords.length)
    throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The search keywords are required');
  const access = itemId > 0 ? await itemFor(caller, itemId, 'read') : null;
  const pages: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  for (const keyword of keywords) {
    const found = await attempt(() => searchPages(caller.actor, keyword, access));
    const lower = keyword.toLowerCase();
    for (const hit of found.pages) {
      const key = `${hit.item_id}:${hit.page_id}`;
      if (seen.has(key) || pages.length >= limit) continue;
      const titleHit = hit.page_title.toLowerCase().includes(lower);
      const contentHit = hit.search_content.toLowerCase().includes(lower);
      const matched = mode === 'title' ? titleHit : mode === 'content' ? contentHit : true;
      if (!matched) continue;
      seen.add(key);
      pages.push({
        page_id: Number(hit.page_id),
        page_title: hit.page_title,
        item_id: hit.item_id,
        cat_id: Number(hit.cat_id),
        addtime: Number(hit.addtime),
        snippet: mode === 'title' ? '' : hit.search_content,
      });
    }
  }
  return {
    query,
    keywords,
    item_id: itemId,
    search_mode: mode,
    pages,
    total: pages.length,
  };
}
