/**
 * RunApi page tools (ShowDoc's RunapiPageHandler): the pages of a RunApi item (item_type 3) hold
 * ShowDoc's RunApi JSON (models/transfer/runapiMarkdown.ts `RunApiDoc`) as their content, and
 * these tools read and write that JSON as an object. Saves go through api/mcp/pageWrite — the
 * REST save (history, change log, live documents, the agent in presence) — which also gives a new
 * page its `ext_info` (the method) as page/save does for RunApi items.
 */
import type { ItemAccess } from '../../../models/access';
import { Page, type PageDoc } from '../../../models/pages';
import { Catalog } from '../../../models/catalogs';
import { formatUnix } from '../../../models/platform';
import { itemFor, pageFor } from '../access';
import { has, idArg, intArg, optionalIdArg, optionalStringArg } from '../args';
import {
  checkContent,
  checkExpectedHash,
  checkTitle,
  contentHash,
  titleTaken,
  writePage,
} from '../pageWrite';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';
import { resolveCatId } from './catalogs';

type Args = Record<string, unknown>;

const RUNAPI = 3;
const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head'];
const MAX_DEPTH = 10;

const invalid = (message: string) => new McpToolError(MCP_ERRORS.INVALID_PARAMS, message);
const failed = (message: string) => new McpToolError(MCP_ERRORS.OPERATION_FAILED, message);

function requireRunApiItem(access: ItemAccess): void {
  if (access.item.item_type !== RUNAPI)
    throw failed('This page does not belong to a RunApi item (item_type is not 3)');
}

function depthOf(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  let deepest = 1;
  for (const child of Object.values(value))
    if (child && typeof child === 'object') deepest = Math.max(deepest, 1 + depthOf(child));
  return deepest;
}

/** The RunApi JSON as ShowDoc checks it; a JSON text of an object is taken too. */
function runApiContent(args: Args): string {
  let content = args.page_content;
  if (content === undefined || content === null) throw invalid('page_content is required');
  if (typeof content === 'string') {
    try {
      content = JSON.parse(content);
    } catch {
      throw invalid('page_content must be a JSON object');
    }
  }
  if (!content || typeof content !== 'object' || Array.isArray(content))
    throw invalid('page_content must be a JSON object');
  if (depthOf(content) > MAX_DEPTH)
    throw invalid(`page_content may be nested at most ${MAX_DEPTH} levels deep`);
  const info = (content as { info?: { url?: unknown; method?: unknown } }).info;
  if (!info?.url) throw invalid('page_content lacks the required field info.url');
  if (!info.method) throw invalid('page_content lacks the required field info.method');
  const method = String(info.method).toLowerCase();
  if (!METHODS.includes(method))
    throw invalid(`info.method is not valid; allowed: ${METHODS.join(', ')}`);
  return checkContent(JSON.stringify(content));
}

function decoded(content: string): unknown {
  if (content === '') return null;
  try {
    return JSON.parse(content);
  } catch {
    return { raw: content };
  }
}

async function createRunApiPage(
  caller: McpCaller,
  access: ItemAccess,
  args: Args,
  title: string,
  content: string,
) {
  requireRunApiItem(access);
  const catId = await resolveCatId(
    caller,
    access,
    optionalIdArg(args, 'cat_id'),
    optionalStringArg(args, 'cat_name'),
  );
  if (await titleTaken(access.item.item_id, catId, title))
    throw failed(`A page titled "${title}" already exists`);
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
    message: 'RunApi page created',
  };
}

/** update_runapi_page on a page already checked for write access. */
async function updateRunApiPage(caller: McpCaller, access: ItemAccess, page: PageDoc, args: Args) {
  requireRunApiItem(access);
  const content = has(args, 'page_content') ? runApiContent(args) : undefined;
  const title = optionalStringArg(args, 'page_title').trim();
  const catIdArg = optionalIdArg(args, 'cat_id');
  const catName = optionalStringArg(args, 'cat_name').trim();
  const moves = catIdArg > 0 || catName !== '';
  const catId = moves ? await resolveCatId(caller, access, catIdArg, catName) : page.cat_id;
  if (title && (await titleTaken(page.item_id, catId, checkTitle(title), page.page_id)))
    throw failed(`A page titled "${title}" already exists`);
  if (!title && moves && (await titleTaken(page.item_id, catId, page.page_title, page.page_id)))
    throw failed('A page with the same title exists in the target catalog: it cannot be moved');
  const expected = has(args, 'expected_hash') ? String(args.expected_hash) : undefined;
  if (content === undefined && !title && !moves && expected === undefined)
    throw invalid('Nothing to update');
  checkExpectedHash(page, expected);
  const saved = await writePage(caller, access, {
    existing: page,
    title: title || page.page_title,
    content: content ?? page.page_content,
    catId,
  });
  return {
    page_id: saved.page_id,
    content_hash: contentHash(saved.page_content),
    message: 'RunApi page updated',
  };
}

const runApiJsonHelp = `page_content must be a RunApi JSON object:

{
  "info": {"from": "runapi", "type": "api", "method": "post", "url": "/api/path", "description": "What it does", "remark": "Notes"},
  "request": {
    "params": {"mode": "json", "json": "{\\"key\\":\\"value\\"}", "jsonDesc": [{"name":"key","type":"string","require":"1","remark":"Meaning"}], "formdata": [], "urlencoded": []},
    "headers": [{"name":"Content-Type","type":"string","value":"application/json","require":"1","remark":""}],
    "query": [{"name":"page","type":"int","value":"1","require":"0","remark":"Page number"}],
    "pathVariable": [{"name":"id","type":"int","value":"1","require":"1","remark":"Resource ID"}],
    "cookies": [],
    "auth": {"type":"bearer","bearer":[{"key":"token","value":"{{token}}","type":"string"}]}
  },
  "response": {"responseExample": "{\\"code\\":0}", "responseParamsDesc": [{"name":"code","type":"int","remark":"Status code"}], "responseFailExample": "", "responseFailParamsDesc": []},
  "scripts": {"pre": "", "post": ""},
  "apiStatus": "0"
}

Key rules:
- method: lowercase, e.g. get/post/put/delete/patch
- require: "1" = required, "0" = optional (string, not boolean)
- mode: "json" | "formdata" | "urlencoded"
- When mode=json: put raw JSON string in params.json, field descriptions in params.jsonDesc[]
- When mode=formdata: put fields in params.formdata[]
- apiStatus: "0"=none, "1"=in development, "2"=testing, "3"=done, "4"=needs changes, "5"=deprecated
- auth.type: "bearer" | "basic" | "digest" | "none"
- scripts.pre/post: JavaScript code executed before/after request`;

const runApiObject = (description: string) => ({ type: 'object', description });

export const runapiTools = defineTools(
  {
    name: 'get_runapi_page',
    description:
      'Get an API page of a RunApi item as its raw RunApi JSON. Only for RunApi items (item_type=3). The page_content returned is the RunApi JSON object: change it and write it back with update_runapi_page.',
    inputSchema: {
      type: 'object',
      properties: {
        page_id: integer('Page ID'),
        item_id: integer('Item ID (with page_title)'),
        page_title: string('Page title (with item_id)'),
      },
    },
    write: false,
    async handler(caller, args) {
      let pageId = optionalIdArg(args, 'page_id');
      const itemId = optionalIdArg(args, 'item_id');
      const title = optionalStringArg(args, 'page_title').trim();
      if (!pageId && (!itemId || !title)) throw invalid('Give page_id, or item_id and page_title');
      if (!pageId) {
        await itemFor(caller, itemId, 'read');
        const found = await Page.findOne(
          { item_id: itemId, page_title: title, is_del: 0 },
          { page_id: 1, _id: 0 },
        ).lean();
        if (!found) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Page not found');
        pageId = found.page_id;
      }
      const { page, access } = await pageFor(caller, pageId, 'read');
      requireRunApiItem(access);
      const catalog = page.cat_id
        ? await Catalog.findOne({ cat_id: page.cat_id }, { cat_name: 1, _id: 0 }).lean()
        : null;
      return {
        page_id: page.page_id,
        page_title: page.page_title,
        item_id: page.item_id,
        cat_id: page.cat_id,
        cat_name: catalog?.cat_name ?? '',
        type: 'runapi',
        page_content: decoded(page.page_content),
        content_hash: contentHash(page.page_content),
        s_number: page.s_number,
        addtime: formatUnix(page.addtime),
        author_uid: page.author_uid,
        author_username: page.author_username,
      };
    },
  },
  {
    name: 'create_runapi_page',
    description: `Create an API page in a RunApi item. Only for RunApi items (item_type=3). ${runApiJsonHelp}`,
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID (item_type must be 3)'),
        page_title: string('API name'),
        page_content: runApiObject('The RunApi JSON object (see the format in the description)'),
        cat_name: string(
          'Catalog name (optional, created when missing; "/" separates nested catalogs)',
        ),
        cat_id: integer(
          'Catalog ID (optional, wins over cat_name; names a nested catalog whose name holds "/")',
        ),
        s_number: integer('Order (optional, default 99)'),
      },
      ['item_id', 'page_title', 'page_content'],
    ),
    write: true,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const title = checkTitle(optionalStringArg(args, 'page_title'));
      const content = runApiContent(args);
      const access = await itemFor(caller, itemId, 'write');
      return createRunApiPage(caller, access, args, title, content);
    },
  },
  {
    name: 'update_runapi_page',
    description:
      'Update an API page of a RunApi item. Only for RunApi items (item_type=3). page_content must be the complete RunApi JSON object (get it with get_runapi_page, change it, send it back): no partial updates. Optimistic lock: pass expected_hash to detect a conflicting change.',
    inputSchema: objectSchema(
      {
        page_id: integer('Page ID'),
        page_title: string('API name (optional)'),
        page_content: runApiObject(
          'The complete RunApi JSON object (a whole object, no partial updates)',
        ),
        cat_id: integer(
          'Target catalog ID (optional: moves the page to that catalog, wins over cat_name)',
        ),
        cat_name: string(
          'Target catalog name (optional: moves the page there, created when missing)',
        ),
        expected_hash: string(
          'The content hash you expect the page to have now (optimistic lock, optional; content_hash from get_runapi_page)',
        ),
      },
      ['page_id'],
    ),
    write: true,
    async handler(caller, args) {
      const { page, access } = await pageFor(caller, idArg(args, 'page_id'), 'write');
      return updateRunApiPage(caller, access, page, args);
    },
  },
  {
    name: 'upsert_runapi_page',
    description:
      'Match by title: update the page when it exists, create it otherwise. Only for RunApi items (item_type=3). page_content as for create_runapi_page.',
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID (item_type must be 3)'),
        page_title: string('API name'),
        page_content: runApiObject('The RunApi JSON object'),
        cat_name: string('Catalog name (optional, created when missing)'),
        cat_id: integer(
          'Catalog ID (optional, wins over cat_name; names a nested catalog whose name holds "/")',
        ),
        s_number: integer('Order (optional, default 99)'),
      },
      ['item_id', 'page_title', 'page_content'],
    ),
    write: true,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const title = checkTitle(optionalStringArg(args, 'page_title'));
      const content = runApiContent(args);
      const access = await itemFor(caller, itemId, 'write');
      requireRunApiItem(access);
      const catIdArg = optionalIdArg(args, 'cat_id');
      const catName = optionalStringArg(args, 'cat_name').trim();
      // With a cat_name the page is found by title anywhere in the item (and moved there);
      // otherwise in the target catalog only — ShowDoc's rule.
      const catId = await resolveCatId(caller, access, catIdArg, catName);
      const existing = await Page.findOne(
        {
          item_id: itemId,
          page_title: title,
          is_del: 0,
          ...(catName && !catIdArg ? {} : { cat_id: catId }),
        },
        { page_id: 1, _id: 0 },
      ).lean();
      if (!existing) return createRunApiPage(caller, access, args, title, content);
      const { page } = await pageFor(caller, existing.page_id, 'write');
      return updateRunApiPage(caller, access, page, {
        page_content: content,
        ...(catIdArg ? { cat_id: catIdArg } : catName ? { cat_name: catName } : {}),
      });
    },
  },
);
