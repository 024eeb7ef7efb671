/**
 * The semantic diff of two versions of an API contract. api-smart-diff (MIT, pure JavaScript)
 * compares the two OpenAPI 3 documents — resolving `$ref`s, circular ones included — and classes
 * every raw difference as breaking, non-breaking, deprecated or annotation by its OpenAPI rules
 * (a request enum narrowed breaks callers, a response enum narrowed does not). Swagger 2 is
 * brought to OpenAPI 3 first by swagger2openapi, which api-smart-diff needs (it reads 3.x only).
 *
 * Its raw differences are JSON paths, repeated for every media type and every operation a shared
 * schema reaches; here they become one line per endpoint and fact ("query parameter `status` is
 * now required"), in the terms the reader and the digest show. Descriptions and examples
 * (annotations) are not changes of the contract and are left out.
 */
import { errors } from '../platform';

type Json = Record<string, unknown>;

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export type ChangeKind =
  | 'endpoint.added'
  | 'endpoint.removed'
  | 'parameter.added'
  | 'parameter.removed'
  | 'parameter.required'
  | 'parameter.changed'
  | 'field.added'
  | 'field.removed'
  | 'field.required'
  | 'type.changed'
  | 'enum.changed'
  | 'request.changed'
  | 'response.added'
  | 'response.removed'
  | 'response.changed';

export interface ContractChange {
  /** `GET /pet/{petId}` */
  endpoint: string;
  method: string;
  path: string;
  kind: ChangeKind;
  breaking: boolean;
  /** Where in the endpoint: `query parameter status`, `request body`, `response 200`. */
  where: string;
  /** The field within a body (`category.name`, `[].status`), '' for none. */
  field: string;
  /** Enum values that went away / came (enum.changed only). */
  removed?: string[];
  added?: string[];
  /** One English line; the web client words it from the fields above. */
  text: string;
}

function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** OpenAPI 3 of a parsed document; Swagger 2 converted (no external fetches). */
export async function toOpenApi3(doc: Json): Promise<Json> {
  if (typeof doc.openapi === 'string') return doc;
  if (!String(doc.swagger ?? '').startsWith('2'))
    throw errors.failed('Not a Swagger 2 or OpenAPI 3 document');
  const { default: converter } = await import('swagger2openapi');
  try {
    const { openapi } = await converter.convertObj(structuredClone(doc), {
      patch: true,
      warnOnly: true,
      resolve: false,
    });
    return openapi as Json;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw errors.failed(`Invalid Swagger document: ${message}`);
  }
}

/** The field a body path points at: properties → names, items → `[]`. */
function fieldOf(rest: (string | number)[]): string {
  const at = rest.indexOf('schema');
  if (at < 0) return '';
  const names: string[] = [];
  for (let i = at + 1; i < rest.length; i++) {
    const step = rest[i];
    if (step === 'properties' && i + 1 < rest.length) names.push(String(rest[++i]));
    else if (step === 'items') names.push('[]');
    else if (step === 'additionalProperties') names.push('*');
  }
  return names.join('.').replace(/\.\[\]/g, '[]');
}

interface RawDiff {
  action: 'add' | 'remove' | 'replace' | 'rename';
  path: (string | number)[];
  before?: unknown;
  after?: unknown;
  type: 'breaking' | 'non-breaking' | 'annotation' | 'unclassified' | 'deprecated';
}

/** Parameter `{name, in}` at index `i` of an operation (or of its path item). */
function parameterAt(doc: Json, path: string, method: string | null, i: number): Json {
  const item = obj(obj(doc.paths)[path]);
  const list = method ? obj(item[method]).parameters : item.parameters;
  return obj(Array.isArray(list) ? list[i] : undefined);
}

/** Classifies one raw difference; null for what is not a contract change. */
function describe(d: RawDiff, before: Json, after: Json): Omit<ContractChange, 'text'>[] {
  if (d.path[0] !== 'paths' || d.type === 'annotation') return [];
  const breaking = d.type === 'breaking';
  const path = String(d.path[1]);
  const make = (
    method: string,
    rest: Omit<ContractChange, 'endpoint' | 'method' | 'path' | 'breaking' | 'text'>,
  ) => ({
    endpoint: `${method.toUpperCase()} ${path}`,
    method,
    path,
    breaking,
    ...rest,
  });
  if (d.path.length === 2) {
    const side = d.action === 'remove' ? before : after;
    const item = obj(obj(side.paths)[path]);
    const kind = d.action === 'remove' ? 'endpoint.removed' : 'endpoint.added';
    return METHODS.filter((m) => item[m]).map((m) => make(m, { kind, where: '', field: '' }));
  }
  const second = String(d.path[2]);
  let methods: string[];
  let rest: (string | number)[];
  if (second === 'parameters') {
    const item = obj(obj(after.paths)[path]);
    methods = METHODS.filter((m) => item[m]);
    rest = d.path.slice(2);
  } else if (METHODS.includes(second)) {
    methods = [second];
    rest = d.path.slice(3);
  } else return [];
  const one = (r: Omit<ContractChange, 'endpoint' | 'method' | 'path' | 'breaking' | 'text'>) =>
    methods.map((m) => make(m, r));
  if (!rest.length) {
    if (d.action === 'add' || d.action === 'remove')
      return one({
        kind: d.action === 'add' ? 'endpoint.added' : 'endpoint.removed',
        where: '',
        field: '',
      });
    return [];
  }
  const enumAt = rest.lastIndexOf('enum');
  const enumValues = () =>
    enumAt >= 0 && enumAt === rest.length - 2
      ? d.action === 'remove'
        ? { removed: [String(d.before)] }
        : d.action === 'add'
          ? { added: [String(d.after)] }
          : { removed: [String(d.before)], added: [String(d.after)] }
      : {};
  if (rest[0] === 'parameters') {
    const index = Number(rest[1]);
    const method = second === 'parameters' ? null : second;
    const p =
      d.action === 'remove' && rest.length === 2
        ? parameterAt(before, path, method, index)
        : Object.keys(parameterAt(after, path, method, index)).length
          ? parameterAt(after, path, method, index)
          : parameterAt(before, path, method, index);
    const where = `${String(p.in ?? '')} parameter ${String(p.name ?? index)}`.trim();
    if (rest.length === 2)
      return one({
        kind: d.action === 'remove' ? 'parameter.removed' : 'parameter.added',
        where,
        field: '',
      });
    const last = rest[rest.length - 1];
    if (last === 'required' && rest.length === 3)
      return one({ kind: 'parameter.required', where, field: '' });
    if (enumAt >= 0) return one({ kind: 'enum.changed', where, field: '', ...enumValues() });
    if (last === 'type') return one({ kind: 'type.changed', where, field: '' });
    return one({ kind: 'parameter.changed', where, field: '' });
  }
  let where: string;
  let inside: (string | number)[];
  if (rest[0] === 'requestBody') {
    where = 'request body';
    inside = rest.slice(1);
  } else if (rest[0] === 'responses' && rest.length >= 2) {
    where = `response ${String(rest[1])}`;
    if (rest.length === 2 && (d.action === 'add' || d.action === 'remove'))
      return one({
        kind: d.action === 'add' ? 'response.added' : 'response.removed',
        where,
        field: '',
      });
    inside = rest.slice(2);
  } else return [];
  const field = fieldOf(inside);
  const last = inside[inside.length - 1];
  if (enumAt >= 0) return one({ kind: 'enum.changed', where, field, ...enumValues() });
  if (last === 'type') return one({ kind: 'type.changed', where, field });
  const propAt = inside.lastIndexOf('properties');
  if (propAt >= 0 && propAt === inside.length - 2 && d.action !== 'replace')
    return one({ kind: d.action === 'add' ? 'field.added' : 'field.removed', where, field });
  if (inside.includes('required') && typeof last === 'number')
    return one({
      kind: 'field.required',
      where,
      field: [field, String(d.after ?? d.before)].filter(Boolean).join('.'),
    });
  return one({
    kind: where === 'request body' ? 'request.changed' : 'response.changed',
    where,
    field,
  });
}

function textOf(c: Omit<ContractChange, 'text'>): string {
  const at = c.field ? `\`${c.field}\` in the ${c.where}` : `the ${c.where}`;
  switch (c.kind) {
    case 'endpoint.added':
      return 'new endpoint';
    case 'endpoint.removed':
      return 'endpoint removed';
    case 'parameter.added':
      return `${c.where} added`;
    case 'parameter.removed':
      return `${c.where} removed`;
    case 'parameter.required':
      return `${c.where} is now required`;
    case 'parameter.changed':
      return `${c.where} changed`;
    case 'field.added':
      return `field ${at} added`;
    case 'field.removed':
      return `field ${at} removed`;
    case 'field.required':
      return `field ${at} became required`;
    case 'type.changed':
      return `type of ${c.field ? at : `the ${c.where}`} changed`;
    case 'enum.changed': {
      const parts = [
        c.removed?.length ? `removed ${c.removed.join(', ')}` : '',
        c.added?.length ? `added ${c.added.join(', ')}` : '',
      ].filter(Boolean);
      return `allowed values of ${c.field ? at : `the ${c.where}`} changed (${parts.join('; ')})`;
    }
    case 'response.added':
      return `${c.where} added`;
    case 'response.removed':
      return `${c.where} removed`;
    default:
      return `${c.field ? at : `the ${c.where}`} changed`;
  }
}

/** Breaking first, then by endpoint. */
export function sortChanges(changes: ContractChange[]): ContractChange[] {
  return [...changes].sort(
    (a, b) =>
      Number(b.breaking) - Number(a.breaking) ||
      a.path.localeCompare(b.path) ||
      a.method.localeCompare(b.method) ||
      a.kind.localeCompare(b.kind),
  );
}

/**
 * The changes from `before` to `after` (both OpenAPI 3, see toOpenApi3), one per endpoint and
 * fact, breaking first. A change seen in several media types is breaking if any of them is.
 */
export async function compareContracts(before: Json, after: Json): Promise<ContractChange[]> {
  const { apiCompare } = await import('api-smart-diff');
  let raw: RawDiff[];
  try {
    raw = apiCompare(before, after).diffs as RawDiff[];
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw errors.failed(`The API documents could not be compared: ${message}`);
  }
  const merged = new Map<string, Omit<ContractChange, 'text'>>();
  for (const d of raw)
    for (const change of describe(d, before, after)) {
      const key = [change.endpoint, change.kind, change.where, change.field].join('|');
      const seen = merged.get(key);
      if (!seen) {
        merged.set(key, change);
        continue;
      }
      seen.breaking ||= change.breaking;
      for (const side of ['removed', 'added'] as const)
        if (change[side])
          seen[side] = [...new Set([...(seen[side] ?? []), ...(change[side] ?? [])])];
    }
  // An endpoint that came or went is one change, not also each of its parts.
  const whole = new Set(
    [...merged.values()]
      .filter((c) => c.kind === 'endpoint.added' || c.kind === 'endpoint.removed')
      .map((c) => c.endpoint),
  );
  const changes = [...merged.values()]
    .filter(
      (c) => c.kind === 'endpoint.added' || c.kind === 'endpoint.removed' || !whole.has(c.endpoint),
    )
    .map((c) => ({ ...c, text: textOf(c) }));
  return sortChanges(changes);
}
