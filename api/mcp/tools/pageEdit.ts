/**
 * Page writing tools (ShowDoc's PageHandler): create, update (whole text or only hunks), upsert,
 * batch upsert and delete — every save through api/mcp/pageWrite (the REST save path).
 */
import type { ItemAccess } from '../../../models/access';
import { deletePage } from '../../../models/pages';
import { Page, type PageDoc } from '../../../models/pages';
import {
  agentMustSuggest,
  proposeSuggestions,
  suggestionsFromDiff,
} from '../../../models/suggestions';
import { asToolError, attempt, itemFor, pageFor } from '../access';
import { arrayArg, has, idArg, intArg, optionalIdArg, optionalStringArg, stringArg } from '../args';
import {
  checkContent,
  checkExpectedHash,
  checkTitle,
  contentHash,
  MAX_PAGE_CONTENT,
  titleTaken,
  writePage,
} from '../pageWrite';
import { integer, objectSchema, string } from '../schema';
import { agentOf, defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';
import { resolveCatId } from './catalogs';
import { applyDiffs, parseDiffs } from './pageDiff';
import { commentToPage } from './showdocComment';

type Args = Record<string, unknown>;

const itemIdProp = integer('Item ID');
const pageIdProp = integer('Page ID');
const titleProp = string('Page title');
const contentProp = string('Page content (Markdown)');
const catIdProp = integer(
  'Catalog ID (optional, wins over cat_name; names a nested catalog whose name holds "/")',
);
const sNumberProp = integer('Order (optional)');
const expectedHashProp = string(
  'The content_hash you expect the page to have now (optimistic lock, optional)',
);

async function createPage(caller: McpCaller, access: ItemAccess, args: Args) {
  const title = checkTitle(stringArg(args, 'page_title'));
  const content = checkContent(optionalStringArg(args, 'page_content', '', MAX_PAGE_CONTENT));
  const catId = await resolveCatId(
    caller,
    access,
    optionalIdArg(args, 'cat_id'),
    optionalStringArg(args, 'cat_name'),
  );
  if (await titleTaken(access.item.item_id, catId, title))
    throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, `A page titled "${title}" already exists`);
  const page = await writePage(caller, access, {
    title,
    content,
    catId,
    sNumber: intArg(args, 's_number', 99, 0),
  });
  return {
    page_id: page.page_id,
    page_title: page.page_title,
    item_id: page.item_id,
    cat_id: page.cat_id,
    message: 'Page created',
  };
}

/** update_page's work on a page already checked for write access. */
async function updatePage(
  caller: McpCaller,
  access: ItemAccess,
  page: PageDoc,
  args: Args,
  newContent?: string,
) {
  checkExpectedHash(page, has(args, 'expected_hash') ? String(args.expected_hash) : undefined);
  const content =
    newContent ??
    (has(args, 'page_content')
      ? checkContent(optionalStringArg(args, 'page_content', '', MAX_PAGE_CONTENT))
      : undefined);
  const title = optionalStringArg(args, 'page_title').trim();
  const catIdArg = optionalIdArg(args, 'cat_id');
  const catName = optionalStringArg(args, 'cat_name').trim();
  const moves = catIdArg > 0 || catName !== '';
  const catId = moves ? await resolveCatId(caller, access, catIdArg, catName) : page.cat_id;
  if (title && (await titleTaken(page.item_id, catId, title, page.page_id)))
    throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, `A page titled "${title}" already exists`);
  if (!title && moves && (await titleTaken(page.item_id, catId, page.page_title, page.page_id)))
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      'The target catalog already holds a page with this title: cannot move it',
    );
  if (content === undefined && !title && !moves)
    throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'Nothing to update');
  if (
    content !== undefined &&
    content !== page.page_content &&
    agentMustSuggest(access, caller.token.writeDirectly)
  )
    return suggestUpdate(
      caller,
      page,
      content,
      (title !== '' && title !== page.page_title) || catId !== page.cat_id,
    );
  const saved = await writePage(caller, access, {
    existing: page,
    title: title ? checkTitle(title) : page.page_title,
    content: content ?? page.page_content,
    catId,
  });
  return {
    page_id: saved.page_id,
    content_hash: contentHash(saved.page_content),
    message: 'Page updated',
  };
}

/**
 * Suggest mode: the item takes this token's text changes as suggestions for its editors to review
 * (models/suggestions); the page itself is left as it is.
 */
async function suggestUpdate(caller: McpCaller, page: PageDoc, content: string, renames: boolean) {
  if (renames)
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      'This item takes your edits as suggestions: change only the page text (no title or catalog)',
    );
  const changes = suggestionsFromDiff(page.page_content, content);
  const ids = await attempt(() =>
    proposeSuggestions(caller.actor, { pageId: page.page_id, changes, agent: agentOf(caller) }),
  );
  return {
    page_id: page.page_id,
    content_hash: contentHash(page.page_content),
    suggested: true,
    suggestion_ids: ids,
    message: `The change awaits review: recorded as ${ids.length} suggestion(s) for the page's editors to accept or reject`,
  };
}

async function upsertPage(caller: McpCaller, access: ItemAccess, args: Args) {
  const title = checkTitle(stringArg(args, 'page_title'));
  const catIdArg = optionalIdArg(args, 'cat_id');
  const catName = optionalStringArg(args, 'cat_name').trim();
  const catId = await resolveCatId(caller, access, catIdArg, catName);
  // ShowDoc: with a cat_name the title is looked up in the whole item, else in the catalog.
  const existing = await Page.findOne(
    {
      item_id: access.item.item_id,
      page_title: title,
      is_del: 0,
      ...(catName === '' ? { cat_id: catId } : {}),
    },
    { _id: 0 },
  )
    .sort({ page_id: 1 })
    .lean<PageDoc>();
  if (!existing) return createPage(caller, access, { ...args, cat_id: catId, cat_name: '' });
  const { page } = await pageFor(caller, existing.page_id, 'write');
  return updatePage(caller, access, page, {
    page_content: args.page_content ?? '',
    ...(catIdArg > 0 || catName ? { cat_id: catId } : {}),
  });
}

export const pageEditTools = defineTools(
  {
    name: 'create_page',
    description:
      'Create a page (Markdown). For kanban items (item_type=6) use kanban_create_task; for RunApi items (item_type=3) use create_runapi_page',
    inputSchema: objectSchema(
      {
        item_id: itemIdProp,
        page_title: titleProp,
        page_content: contentProp,
        cat_name: string(
          'Catalog name (optional, created when missing). A "/" in the name separates levels',
        ),
        cat_id: catIdProp,
        s_number: sNumberProp,
      },
      ['item_id', 'page_title', 'page_content'],
    ),
    write: true,
    async handler(caller, args) {
      const access = await itemFor(caller, idArg(args, 'item_id'), 'write');
      return createPage(caller, access, args);
    },
  },
  {
    name: 'create_page_by_comment',
    description:
      'Create (or update) a page from a code comment in the showdoc format (@title, @url, @param …). Not for kanban items (item_type=6); meant for regular items (item_type=1). For RunApi items prefer create_runapi_page / upsert_runapi_page',
    inputSchema: objectSchema(
      {
        item_id: itemIdProp,
        comment_content: string('The code comment (showdoc format)'),
      },
      ['item_id', 'comment_content'],
    ),
    write: true,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const comment = stringArg(args, 'comment_content', MAX_PAGE_CONTENT).trim();
      const access = await itemFor(caller, itemId, 'write');
      const parsed = commentToPage(comment, access.item.item_type || 1);
      if (!parsed)
        throw new McpToolError(
          MCP_ERRORS.INVALID_PARAMS,
          'Comment format error: the @title tag is missing',
        );
      const catId = await resolveCatId(caller, access, 0, parsed.catalog);
      const existing = await Page.findOne(
        { item_id: itemId, cat_id: catId, page_title: parsed.title, is_del: 0 },
        { _id: 0 },
      ).lean<PageDoc>();
      const page = existing
        ? await writePage(caller, (await pageFor(caller, existing.page_id, 'write')).access, {
            existing,
            title: parsed.title,
            content: parsed.content,
            catId,
            sNumber: parsed.number,
          })
        : await writePage(caller, access, {
            title: parsed.title,
            content: parsed.content,
            catId,
            sNumber: parsed.number,
          });
      return {
        page_id: page.page_id,
        page_title: page.page_title,
        item_id: page.item_id,
        cat_id: page.cat_id,
        message: existing ? 'Page updated' : 'Page created',
      };
    },
  },
  {
    name: 'update_page',
    description:
      'Update a page. For kanban items (item_type=6) use kanban_update_task; for RunApi items (item_type=3) use update_runapi_page. On an item in suggest mode the text change is recorded as suggestions for its editors to review (answer: suggested=true), unless the token may write directly',
    inputSchema: objectSchema(
      {
        page_id: pageIdProp,
        page_content: contentProp,
        page_title: string('Page title (optional)'),
        cat_name: string('Catalog name (optional: moves the page there, created when missing)'),
        cat_id: integer('Target catalog ID (optional, wins over cat_name: moves the page there)'),
        expected_hash: expectedHashProp,
      },
      ['page_id'],
    ),
    write: true,
    async handler(caller, args) {
      const { page, access } = await pageFor(caller, idArg(args, 'page_id'), 'write');
      return updatePage(caller, access, page, args);
    },
  },
  {
    name: 'update_page_diff',
    description:
      'Update a page by replacing fragments: send only the parts to change, not the whole text (for small edits to large pages). Each old_text must match the current content exactly and once; get the latest content with get_page first',
    inputSchema: objectSchema(
      {
        page_id: pageIdProp,
        diffs: {
          type: 'array',
          description: 'Replacements (1-20), each with old_text and new_text',
          items: {
            type: 'object',
            properties: {
              old_text: string('The exact fragment to replace'),
              new_text: string('What replaces it'),
            },
            required: ['old_text', 'new_text'],
          },
        },
        page_title: string('Page title (optional)'),
        cat_name: string('Catalog name (optional: moves the page there, created when missing)'),
        cat_id: integer('Catalog ID (optional, wins over cat_name)'),
        expected_hash: expectedHashProp,
      },
      ['page_id', 'diffs'],
    ),
    write: true,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      const diffs = parseDiffs(args.diffs);
      const { page, access } = await pageFor(caller, pageId, 'write');
      checkExpectedHash(page, has(args, 'expected_hash') ? String(args.expected_hash) : undefined);
      const content = checkContent(applyDiffs(page.page_content, diffs));
      const result = await updatePage(caller, access, page, args, content);
      if ('suggested' in result) return result;
      return {
        page_id: pageId,
        content_hash: result.content_hash,
        diffs_applied: diffs.length,
        message: 'Page updated from the diffs',
      };
    },
  },
  {
    name: 'upsert_page',
    description:
      'Match a page by title: update it when it exists, create it otherwise. For kanban items (item_type=6) use kanban_create_task or kanban_update_task; for RunApi items (item_type=3) use upsert_runapi_page',
    inputSchema: objectSchema(
      {
        item_id: itemIdProp,
        page_title: titleProp,
        page_content: contentProp,
        cat_name: string('Catalog name (optional)'),
        cat_id: catIdProp,
        s_number: sNumberProp,
      },
      ['item_id', 'page_title', 'page_content'],
    ),
    write: true,
    async handler(caller, args) {
      const access = await itemFor(caller, idArg(args, 'item_id'), 'write');
      return upsertPage(caller, access, args);
    },
  },
  {
    name: 'batch_upsert_pages',
    description:
      'Create or update many pages at once (at most 50). Not for kanban items (item_type=6, use kanban_create_task) nor RunApi items (item_type=3, use create_runapi_page or upsert_runapi_page)',
    inputSchema: objectSchema(
      {
        item_id: itemIdProp,
        pages: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              page_title: { type: 'string' },
              page_content: { type: 'string' },
              cat_name: { type: 'string' },
              cat_id: { type: 'integer', description: 'Catalog ID (optional, wins over cat_name)' },
              s_number: { type: 'integer' },
            },
            required: ['page_title', 'page_content'],
          },
          description: 'The pages (at most 50)',
        },
      },
      ['item_id', 'pages'],
    ),
    write: true,
    async handler(caller, args) {
      const access = await itemFor(caller, idArg(args, 'item_id'), 'write');
      const entries = arrayArg(args, 'pages', 500).slice(0, 50);
      const result = {
        success_count: 0,
        failed_count: 0,
        results: [] as Array<Record<string, unknown>>,
      };
      for (const raw of entries) {
        const entry = (raw && typeof raw === 'object' ? raw : {}) as Args;
        const title = typeof entry.page_title === 'string' ? entry.page_title : '';
        try {
          const saved = await upsertPage(caller, access, entry);
          result.success_count++;
          result.results.push({ page_title: title, status: 'success', page_id: saved.page_id });
        } catch (error) {
          result.failed_count++;
          result.results.push({
            page_title: title,
            status: 'failed',
            error: asToolError(error).message,
          });
        }
      }
      return result;
    },
  },
  {
    name: 'delete_page',
    description:
      'Delete a page (to the recycle bin). For kanban items (item_type=6) use kanban_delete_task; RunApi pages (item_type=3) may be deleted here',
    inputSchema: objectSchema({ page_id: pageIdProp }, ['page_id']),
    write: true,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      await pageFor(caller, pageId, 'write');
      await attempt(() => deletePage(caller.actor, pageId));
      return { page_id: pageId, message: 'Page deleted' };
    },
  },
);
