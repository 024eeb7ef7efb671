/**
 * import_openapi (ShowDoc's OpenApiHandler): a Swagger 2 / OpenAPI 3 JSON document, given as text
 * or as a URL, becomes API pages — into an item the token may write, or into a new item when the
 * token may create items. The document goes through the import code `import/auto` uses
 * (models/transfer importFile: one page per operation and tag, catalogs by tag, RunApi JSON for
 * `format: runapi`, all or nothing).
 *
 * A URL is fetched through the HTTP relay's guarded client (models/assistants: public addresses
 * only, checked after DNS resolution and pinned, redirects checked hop by hop, a size and time
 * cap) under the one address policy every server-side fetcher obeys: private addresses only where
 * the operator's ALLOW_PRIVATE_HOSTS names them.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addCreatedItemToScope, UserAiToken } from '../../../models/aiTokens';
import { relayHttpRequest } from '../../../models/assistants';
import { Item } from '../../../models/items';
import { addressPolicy, errors, fileStorage, isApiError } from '../../../models/platform';
import { importFile } from '../../../models/transfer';
import { attempt, itemFor } from '../access';
import { enumArg, optionalIdArg, optionalStringArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';

type Json = Record<string, unknown>;

const invalid = (message: string) => new McpToolError(MCP_ERRORS.INVALID_PARAMS, message);

/** Characters of OpenAPI text taken as an argument (the endpoint's 1 MB body bounds it anyway). */
const MAX_CONTENT_CHARS = 1024 * 1024;

/** The document at `url`, fetched under the address policy. */
async function fetchDocument(caller: McpCaller, url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('openapi_url is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid('openapi_url must be an http:// or https:// address');
  let answer;
  try {
    answer = await relayHttpRequest(
      caller.actor,
      { method: 'GET', url, headers: [['Accept', 'application/json']], body: '' },
      addressPolicy('The OpenAPI import'),
    );
  } catch (error) {
    // A refused address is the agent's argument; anything else is the fetch failing.
    if (isApiError(error) && error.code === errors.forbidden().code) throw invalid(error.message);
    const message = isApiError(error) ? error.message : 'the connection failed';
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      `Fetching the OpenAPI document failed: ${message}`,
    );
  }
  if (answer.status !== 200)
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      `Fetching the OpenAPI document failed: HTTP ${answer.status}`,
    );
  if (answer.truncated || answer.binary)
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      answer.truncated
        ? 'The OpenAPI document at that URL is too large; give its content instead'
        : 'The answer at that URL is not a JSON document',
    );
  return answer.body;
}

function parseDocument(text: string): Json {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    doc = null;
  }
  if (
    !doc ||
    typeof doc !== 'object' ||
    Array.isArray(doc) ||
    !(doc as Json).info ||
    !((doc as Json).swagger || (doc as Json).openapi)
  )
    throw invalid('Not a valid OpenAPI/Swagger document');
  return doc as Json;
}

/** ShowDoc's catalog count: one per tag, plus its "from swagger" catalog for untagged operations. */
function catalogCount(doc: Json): number {
  const tags = new Set<string>();
  for (const operations of Object.values((doc.paths ?? {}) as Json))
    for (const operation of Object.values((operations ?? {}) as Json)) {
      const opTags = (operation as { tags?: unknown })?.tags;
      if (Array.isArray(opTags)) for (const tag of opTags) tags.add(String(tag));
    }
  return tags.size + 1;
}

export const openapiTools = defineTools({
  name: 'import_openapi',
  description:
    'Import an OpenAPI/Swagger document: create API pages in bulk. Not for kanban items (item_type=6)',
  inputSchema: objectSchema(
    {
      item_id: integer('Item ID (optional: without it a new item is created)'),
      openapi_content: string('The OpenAPI/Swagger JSON content (or give openapi_url)'),
      openapi_url: string('URL of the OpenAPI/Swagger document (or give openapi_content)'),
      format: string(
        'Import format: markdown (ordinary documents, the default) or runapi (a RunApi item)',
      ),
    },
    [],
  ),
  write: true,
  async handler(caller, args) {
    const itemId = optionalIdArg(args, 'item_id');
    const content = optionalStringArg(args, 'openapi_content', '', MAX_CONTENT_CHARS).trim();
    const url = optionalStringArg(args, 'openapi_url', '', 2048).trim();
    const format = enumArg(args, 'format', ['markdown', 'runapi'] as const, 'markdown');
    if (!content && !url) throw invalid('Give openapi_content or openapi_url');

    // Who may write where, before anything is fetched.
    if (itemId > 0) await itemFor(caller, itemId, 'write');
    else {
      const token = await UserAiToken.findOne({ id: caller.token.id }, { _id: 0 }).lean();
      if (token?.can_create_item !== 1)
        throw new McpToolError(
          MCP_ERRORS.TOKEN_OPERATION_DENIED,
          'This token may not create items',
        );
    }

    const text = content || (await fetchDocument(caller, url));
    const doc = parseDocument(text);
    const staged = join(await fileStorage().stagingDir(), `mcp-${randomBytes(12).toString('hex')}`);
    await writeFile(staged, text, { mode: 0o600 });
    let result;
    try {
      result = await attempt(() =>
        importFile(caller.actor, {
          itemId,
          fileName: 'openapi.json',
          path: staged,
          size: Buffer.byteLength(text),
          runApi: format === 'runapi',
        }),
      );
    } finally {
      await rm(staged, { force: true });
    }
    if (!(itemId > 0)) {
      const token = await UserAiToken.findOne({ id: caller.token.id }, { _id: 0 }).lean();
      if (token) await addCreatedItemToScope(token, result.item_id);
    }
    const item = await Item.findOne({ item_id: result.item_id }, { item_name: 1, _id: 0 }).lean();
    return {
      item_id: result.item_id,
      item_name: item?.item_name ?? '',
      is_new_item: !(itemId > 0),
      swagger_version: String(doc.swagger ?? doc.openapi ?? ''),
      format,
      catalog_count: catalogCount(doc),
      page_count: result.pages,
      message:
        itemId > 0
          ? 'The OpenAPI document was imported into the item'
          : 'A new item was created from the OpenAPI document',
    };
  },
});
