/**
 * Swagger 2 / OpenAPI 3 and Postman collection v2.1 → import plans, one page per operation in
 * ShowDoc's API-document format (RunApi JSON converted to its Markdown for ordinary items, kept
 * as JSON for RunApi items), catalogs by tag (untagged operations under "from swagger") or by
 * Postman folder. Specifications are parsed and `$ref`s resolved by @apidevtools/swagger-parser,
 * with external references switched off (an uploaded file must not make the server fetch URLs or
 * read files).
 */
import { errors } from '../platform';
import type { ImportPlan, PlannedPage } from './importPlan';
import {
  emptyRunApiDoc,
  phpJson,
  runapiToMarkdown,
  type RunApiDoc,
  type RunApiParam,
} from './runapiMarkdown';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'trace'];
const MAX_SCHEMA_DEPTH = 8;

function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
function exampleText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A schema's fields as ShowDoc's parameter table rows (nested fields flattened, as ShowDoc). */
function schemaFields(schema: Json, depth = 0, seen = new Set<Json>()): RunApiParam[] {
  if (depth > MAX_SCHEMA_DEPTH || seen.has(schema)) return [];
  seen.add(schema);
  const required = new Set(list(schema.required).map(str));
  const out: RunApiParam[] = [];
  const target = schema.type === 'array' ? obj(schema.items) : schema;
  for (const [name, raw] of Object.entries(obj(target.properties))) {
    const field = obj(raw);
    out.push({
      name,
      type: str(field.type) || 'string',
      value: exampleText(field.example ?? field.default),
      require: required.has(name) ? '1' : '0',
      remark: str(field.title) || str(field.description),
    });
    if (field.properties || field.items) out.push(...schemaFields(field, depth + 1, seen));
  }
  return out;
}

/** An example value generated from a schema (its examples and defaults where given). */
function schemaExample(schema: Json, depth = 0, seen = new Set<Json>()): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (depth > MAX_SCHEMA_DEPTH || seen.has(schema)) return null;
  seen.add(schema);
  const type = str(schema.type) || (schema.properties ? 'object' : '');
  if (type === 'object') {
    const out: Json = {};
    for (const [name, field] of Object.entries(obj(schema.properties)))
      out[name] = schemaExample(obj(field), depth + 1, new Set(seen));
    return out;
  }
  if (type === 'array') return [schemaExample(obj(schema.items), depth + 1, seen)];
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  if (list(schema.enum).length) return list(schema.enum)[0];
  return '';
}

function param(p: Json): RunApiParam {
  const schema = obj(p.schema);
  return {
    name: str(p.name),
    type: str(p.type) || str(schema.type) || 'string',
    value: exampleText(
      p.example ?? p['x-example'] ?? p.default ?? schema.example ?? schema.default,
    ),
    require: p.required ? '1' : '0',
    remark: str(p.description),
  };
}

function operationDoc(
  method: string,
  path: string,
  op: Json,
  shared: unknown[],
  urlPrefix: string,
  swagger2: boolean,
): RunApiDoc {
  const doc = emptyRunApiDoc();
  doc.info.title = str(op.summary) || str(op.description);
  doc.info.description = str(op.description);
  doc.info.method = method;
  doc.info.url = urlPrefix + path;
  const pathVariable: RunApiParam[] = [];
  for (const raw of [...shared, ...list(op.parameters)]) {
    const p = obj(raw);
    switch (p.in) {
      case 'query':
        doc.request.query.push(param(p));
        break;
      case 'header':
        doc.request.headers.push(param(p));
        break;
      case 'path':
        pathVariable.push(param(p));
        break;
      case 'formData':
        doc.request.params.formdata!.push(param(p));
        break;
      case 'body': {
        const schema = obj(p.schema);
        doc.request.params.mode = 'json';
        doc.request.params.json = JSON.stringify(schemaExample(schema), null, 2);
        doc.request.params.jsonDesc = schemaFields(schema);
        break;
      }
    }
  }
  if (pathVariable.length) doc.request.pathVariable = pathVariable;
  if (!swagger2) {
    const content = obj(obj(op.requestBody).content);
    const json = Object.keys(content).find((type) => type.includes('json'));
    const form = Object.keys(content).find((type) => type.includes('form'));
    if (json) {
      const schema = obj(obj(content[json]).schema);
      doc.request.params.mode = 'json';
      doc.request.params.json = JSON.stringify(
        obj(content[json]).example ?? schemaExample(schema),
        null,
        2,
      );
      doc.request.params.jsonDesc = schemaFields(schema);
    } else if (form) {
      const mode = form.includes('urlencoded') ? 'urlencoded' : 'formdata';
      doc.request.params.mode = mode;
      doc.request.params[mode] = schemaFields(obj(obj(content[form]).schema));
    }
  }
  const responses = obj(op.responses);
  const ok = obj(responses['200'] ?? responses['201'] ?? responses.default);
  let schema = obj(ok.schema);
  let example: unknown = obj(ok.examples)['application/json'];
  if (!swagger2) {
    const content = obj(ok.content);
    const json = Object.keys(content).find((type) => type.includes('json'));
    const media = obj(json ? content[json] : undefined);
    schema = obj(media.schema);
    example = media.example ?? obj(Object.values(obj(media.examples))[0]).value;
  }
  if (Object.keys(schema).length || example !== undefined) {
    doc.response.responseExample = JSON.stringify(example ?? schemaExample(schema), null, 2);
    doc.response.responseParamsDesc = schemaFields(schema);
  }
  return doc;
}

function pageOf(doc: RunApiDoc, title: string, catPath: string[], runApi: boolean): PlannedPage {
  const content = runApi ? phpJson(doc) : (runapiToMarkdown(doc) ?? '');
  return { title: [...title].slice(0, 50).join(''), content, catPath, sNumber: 99, remark: '' };
}

/** Whether parsed JSON/YAML looks like a Swagger/OpenAPI document (ShowDoc's test). */
export function isOpenApi(doc: Json): boolean {
  return Boolean(doc.swagger || (doc.openapi && doc.info));
}

/** Whether parsed JSON looks like a Postman collection. */
export function isPostman(doc: Json): boolean {
  return Boolean(obj(doc.info).schema || (doc.info && Array.isArray(doc.item)));
}

export async function planFromOpenApi(input: Json, runApi: boolean): Promise<ImportPlan> {
  let api: Json;
  // Loaded on the first import of a spec, not in every process at start.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    api = (await SwaggerParser.dereference(structuredClone(input) as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as unknown as Json;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw errors.failed(`Invalid Swagger/OpenAPI document: ${message}`);
  }
  const swagger2 = str(api.swagger).startsWith('2');
  let prefix = '';
  if (swagger2 && api.host)
    prefix = `${str(list(api.schemes)[0]) || 'http'}://${str(api.host)}${str(api.basePath)}`;
  else if (!swagger2) prefix = str(obj(list(api.servers)[0]).url);
  const pages: PlannedPage[] = [];
  for (const [path, rawItem] of Object.entries(obj(api.paths))) {
    const item = obj(rawItem);
    for (const method of METHODS) {
      if (!item[method]) continue;
      const op = obj(item[method]);
      const doc = operationDoc(method, path, op, list(item.parameters), prefix, swagger2);
      const title =
        str(op.summary) ||
        str(op.description) ||
        str(op.operationId) ||
        `${method.toUpperCase()} ${path}`;
      const tags = list(op.tags).map(str).filter(Boolean);
      const endpoint = { method, path, responseExample: doc.response.responseExample || '' };
      for (const tag of tags.length ? tags : ['from swagger'])
        pages.push({ ...pageOf(doc, title, [tag], runApi), endpoint });
    }
  }
  const info = obj(api.info);
  return {
    source: 'openapi',
    itemName: str(info.title) || 'from swagger',
    itemType: runApi ? 3 : 1,
    itemDescription: str(info.description),
    pages,
    notes: [],
  };
}

function postmanParams(rows: unknown): RunApiParam[] {
  return list(rows)
    .map(obj)
    .filter((r) => str(r.key))
    .map((r) => ({
      name: str(r.key),
      type: str(r.type) === 'file' ? 'file' : 'string',
      value: str(r.value),
      require: '1',
      remark: str(r.description),
      ...(r.disabled ? { disable: 1 } : {}),
    }));
}

function postmanRequest(name: string, raw: Json, responses: unknown[]): RunApiDoc {
  const doc = emptyRunApiDoc();
  const request = typeof raw === 'string' ? { url: raw } : raw;
  const url = request.url;
  doc.info.title = name;
  doc.info.description =
    str(obj(request).description) || str(obj(obj(request).description).content);
  doc.info.method = (str(request.method) || 'get').toLowerCase();
  doc.info.url = typeof url === 'string' ? url : str(obj(url).raw);
  doc.request.query = postmanParams(obj(url).query);
  doc.request.headers = postmanParams(request.header);
  const body = obj(request.body);
  if (body.mode === 'raw') {
    doc.request.params.mode = 'json';
    doc.request.params.json = str(body.raw);
  } else if (body.mode === 'urlencoded' || body.mode === 'formdata') {
    doc.request.params.mode = str(body.mode);
    doc.request.params[str(body.mode)] = postmanParams(body[str(body.mode)]);
  }
  const first = obj(responses[0]);
  if (first.body) doc.response.responseExample = str(first.body);
  return doc;
}

/** Postman collection v2.0/2.1: folders → catalogs, requests → pages. */
export function planFromPostman(collection: Json, runApi: boolean): ImportPlan {
  const pages: PlannedPage[] = [];
  // Depth first in document order, with a stack of its own rather than the call stack.
  const stack: [unknown, string[]][] = list(collection.item)
    .map((raw): [unknown, string[]] => [raw, []])
    .reverse();
  while (stack.length) {
    const [raw, path] = stack.pop()!;
    const entry = obj(raw);
    const name = str(entry.name) || 'Untitled';
    if (Array.isArray(entry.item)) {
      const inner = [...path, name];
      for (const child of [...entry.item].reverse()) stack.push([child, inner]);
    } else if (entry.request)
      pages.push(
        pageOf(postmanRequest(name, obj(entry.request), list(entry.response)), name, path, runApi),
      );
  }
  const info = obj(collection.info);
  return {
    source: 'postman',
    itemName: str(info.name) || 'from postman',
    itemType: runApi ? 3 : 1,
    itemDescription: str(info.description),
    pages,
    notes: [],
  };
}
