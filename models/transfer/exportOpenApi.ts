/**
 * Beyond ShowDoc: an OpenAPI 3.0 document generated from an item's API pages (RunApi JSON pages,
 * as RunApi items, code-comment sync and spec imports store them). One operation per page, tagged
 * with its top-level catalog; parameters, JSON bodies and the success response come from the
 * page's tables and examples. Pages that are not API documents are left out; a second page for
 * the same method and path is left out too (OpenAPI allows one).
 */
import { type Actor } from '../access';
import { ApiError } from '../platform';
import { exportTree, type ExportCatalog, type ExportPage, type ExportScope } from './exportTree';
import type { RunApiDoc, RunApiParam } from './runapiMarkdown';

type Schema = Record<string, unknown>;
const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'trace']);

function schemaType(type: string | undefined): Schema {
  switch ((type ?? '').toLowerCase()) {
    case 'int':
    case 'integer':
    case 'long':
      return { type: 'integer' };
    case 'number':
    case 'float':
    case 'double':
      return { type: 'number' };
    case 'bool':
    case 'boolean':
      return { type: 'boolean' };
    case 'array':
      return { type: 'array', items: {} };
    case 'object':
      return { type: 'object' };
    case 'file':
      return { type: 'string', format: 'binary' };
    default:
      return { type: 'string' };
  }
}

function active(list: RunApiParam[] | undefined): RunApiParam[] {
  return (Array.isArray(list) ? list : []).filter(
    (p) => p && typeof p.name === 'string' && p.name && !(Number(p.disable) >= 1),
  );
}

function objectSchema(fields: RunApiParam[]): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const f of fields) {
    properties[f.name] = { ...schemaType(f.type), ...(f.remark ? { description: f.remark } : {}) };
    if (f.require === '1') required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function parseExample(text: unknown): unknown {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parameter(p: RunApiParam, where: 'query' | 'header' | 'path') {
  return {
    name: p.name,
    in: where,
    required: where === 'path' || p.require === '1',
    ...(p.remark ? { description: p.remark } : {}),
    schema: schemaType(p.type),
    ...(p.value ? { example: p.value } : {}),
  };
}

function apiDoc(page: ExportPage): RunApiDoc | null {
  try {
    const doc = JSON.parse(page.page_content) as RunApiDoc;
    return doc?.info?.url && typeof doc.info.url === 'string' ? doc : null;
  } catch {
    return null;
  }
}

function operation(page: ExportPage, doc: RunApiDoc, tag: string) {
  const request = doc.request ?? { params: { mode: '' }, headers: [], query: [] };
  const mode = request.params?.mode ?? '';
  const parameters = [
    ...active(request.pathVariable).map((p) => parameter(p, 'path')),
    ...active(request.query).map((p) => parameter(p, 'query')),
    ...active(request.headers).map((p) => parameter(p, 'header')),
  ];
  let requestBody: Schema | undefined;
  if (mode === 'json' && (request.params.json || active(request.params.jsonDesc).length)) {
    const example = parseExample(request.params.json);
    requestBody = {
      content: {
        'application/json': {
          schema: objectSchema(active(request.params.jsonDesc)),
          ...(example !== undefined ? { example } : {}),
        },
      },
    };
  } else if (
    (mode === 'formdata' || mode === 'urlencoded') &&
    active(request.params[mode] as RunApiParam[]).length
  ) {
    const type = mode === 'formdata' ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    requestBody = {
      content: { [type]: { schema: objectSchema(active(request.params[mode] as RunApiParam[])) } },
    };
  }
  const example = parseExample(doc.response?.responseExample);
  const fields = active(doc.response?.responseParamsDesc);
  const success: Schema = { description: 'Success' };
  if (example !== undefined || fields.length)
    success.content = {
      'application/json': {
        schema: fields.length ? objectSchema(fields) : {},
        ...(example !== undefined ? { example } : {}),
      },
    };
  return {
    operationId: `page_${page.page_id}`,
    summary: page.page_title,
    ...(doc.info.description ? { description: String(doc.info.description) } : {}),
    ...(tag ? { tags: [tag] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { '200': success },
  };
}

/** Splits a page URL into server and path (`{name}` path variables kept, `:name` converted). */
function splitUrl(url: string): { server: string; path: string } {
  const noQuery = url.split('?')[0].split('#')[0];
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]+)(.*)$/i.exec(noQuery);
  const server = match ? match[1] : '';
  let path = (match ? match[2] : noQuery) || '/';
  if (!path.startsWith('/')) path = `/${path}`;
  path = path.replace(/\/:([A-Za-z_][A-Za-z0-9_]*)/g, '/{$1}');
  return { server, path };
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown>>;
}

export async function exportOpenApi(actor: Actor, scope: ExportScope): Promise<OpenApiDocument> {
  const { access, tree } = await exportTree(actor, { itemId: scope.itemId, catId: scope.catId });
  const paths: OpenApiDocument['paths'] = {};
  const servers = new Set<string>();
  const tags = new Set<string>();
  const add = (page: ExportPage, tag: string) => {
    const doc = apiDoc(page);
    const method = (doc?.info.method ?? '').toLowerCase();
    if (!doc || !METHODS.has(method)) return;
    const { server, path } = splitUrl(String(doc.info.url));
    if (server) servers.add(server);
    paths[path] ??= {};
    if (paths[path][method]) return;
    // Path templates need a parameter per `{name}`: add those the page did not describe.
    const op = operation(page, doc, tag);
    const declared = new Set(
      (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
    );
    const missing = [...path.matchAll(/\{([^}]+)\}/g)]
      .map((m) => m[1])
      .filter((n) => !declared.has(n));
    if (missing.length)
      op.parameters = [
        ...(op.parameters ?? []),
        ...missing.map((name) => ({
          name,
          in: 'path' as const,
          required: true,
          schema: { type: 'string' },
        })),
      ];
    paths[path][method] = op;
    if (tag) tags.add(tag);
  };
  for (const page of tree.pages) add(page, '');
  const walk = (cat: ExportCatalog, tag: string) => {
    for (const page of cat.pages) add(page, tag);
    for (const inner of cat.catalogs) walk(inner, tag);
  };
  for (const cat of tree.catalogs) walk(cat, cat.cat_name);
  if (!Object.keys(paths).length)
    throw new ApiError(10101, 'This item has no API document page to describe');
  const item = access.item;
  return {
    openapi: '3.0.3',
    info: {
      title: item.item_name,
      version: '1.0.0',
      ...(item.item_description ? { description: item.item_description } : {}),
    },
    ...(servers.size === 1 ? { servers: [{ url: [...servers][0] }] } : {}),
    tags: [...tags].map((name) => ({ name })),
    paths,
  };
}
