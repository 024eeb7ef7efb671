/**
 * Query filters. Pure equality filters (the hot path: `{_id}`, `{uid}`, `{item_id, is_del}`) are
 * matched by a hand-written predicate; everything else goes to mingo, compiled once per filter
 * shape and value and kept in a small cache. Filters are normalised first so that mingo sees
 * JavaScript RegExps (with MongoDB's `x` flag honoured) instead of BSON regex objects.
 */
import { Query } from 'mingo/query';
import { Aggregator } from 'mingo/aggregator';
import { Context, evalExpr } from 'mingo/core';
import * as accumulatorOps from 'mingo/operators/accumulator';
import * as expressionOps from 'mingo/operators/expression';
import * as pipelineOps from 'mingo/operators/pipeline';
import * as projectionOps from 'mingo/operators/projection';
import * as queryOps from 'mingo/operators/query';
import * as windowOps from 'mingo/operators/window';
import { ObjectId, type Document } from 'bson';
import { canonicalKey, isPlainObject, typeName, valuesAtPath } from './values';
import { ErrorCodes, fail } from './errors';

type Options = Parameters<typeof evalExpr>[2];

/**
 * mingo's full operator set with our BSON-aware expression operators in place of its own. Built
 * here rather than passed as an extra context: mingo merges contexts first-wins, so an extra
 * context cannot override a built-in operator.
 */
const bsonExpressionOps = Context.init({
  accumulator: accumulatorOps as never,
  pipeline: pipelineOps as never,
  projection: projectionOps as never,
  query: queryOps as never,
  window: windowOps as never,
  expression: {
    ...(expressionOps as never as Record<string, never>),
    $toString: (obj: unknown, expr: unknown, options: Options) => {
      const v = evalExpr(obj, expr, options);
      if (v === null || v === undefined) return null;
      if (v instanceof ObjectId || (v as { _bsontype?: string })?._bsontype === 'ObjectId')
        return (v as ObjectId).toHexString();
      if (v instanceof Date) return v.toISOString();
      if (typeof v === 'object' && (v as { _bsontype?: string })._bsontype) return String(v);
      if (typeof v === 'object')
        fail(ErrorCodes.BadValue, `Unsupported conversion from ${typeName(v)} to string`);
      return String(v);
    },
    $type: (obj: unknown, expr: unknown, options: Options) =>
      typeName(evalExpr(obj, expr, options)),
    $toObjectId: (obj: unknown, expr: unknown, options: Options) => {
      const v = evalExpr(obj, expr, options);
      if (v === null || v === undefined) return null;
      if ((v as { _bsontype?: string })?._bsontype === 'ObjectId') return v;
      if (typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)) return new ObjectId(v);
      return fail(
        ErrorCodes.ConversionFailure,
        `Failed to parse objectId '${String(v)}' in $convert with no onError value: Invalid string length`,
      );
    },
  },
});

export function mingoOptions(resolve?: (name: string) => Document[]): Document {
  return {
    context: bsonExpressionOps,
    useStrictMode: true,
    ...(resolve ? { collectionResolver: resolve } : {}),
  };
}

/** MongoDB regex options → a JavaScript RegExp. `x` drops unescaped whitespace and # comments. */
export function toRegExp(pattern: string, options = ''): RegExp {
  const source = options.includes('x') ? stripExtended(pattern) : pattern;
  const flags = [...new Set(options.replace(/[^ims]/g, '').split(''))].join('');
  try {
    return new RegExp(source, flags);
  } catch (err) {
    return fail(ErrorCodes.BadValue, `Regular expression is invalid: ${(err as Error).message}`);
  }
}

/** PCRE's extended mode: unescaped whitespace and `#` comments outside classes are dropped. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      out += ch;
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
    } else if (ch === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(ch)) {
      out += ch;
    }
  }
  return out;
}

function isBsonRegex(v: unknown): v is { pattern: string; options: string } {
  return (v as { _bsontype?: string } | null)?._bsontype === 'BSONRegExp';
}

/** Rewrites BSON regexes and `$regex`/`$options` pairs into RegExps, recursively. */
export function normaliseFilter(filter: unknown): unknown {
  if (isBsonRegex(filter)) return toRegExp(filter.pattern, filter.options);
  if (Array.isArray(filter)) return filter.map(normaliseFilter);
  if (!isPlainObject(filter)) return filter;
  const out: Document = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$regex') {
      const options = typeof filter.$options === 'string' ? filter.$options : '';
      if (isBsonRegex(v)) out.$regex = toRegExp(v.pattern, options || v.options);
      else if (v instanceof RegExp) out.$regex = options ? toRegExp(v.source, options) : v;
      else out.$regex = toRegExp(String(v), options);
    } else if (k === '$options') {
      continue;
    } else {
      out[k] = normaliseFilter(v);
    }
  }
  return out;
}

export type Predicate = (doc: Document) => boolean;

/** Equality conditions (field → allowed canonical keys) when a filter is nothing but those. */
export interface EqualityPlan {
  fields: Array<{ path: string; keys: Set<string>; values: unknown[] }>;
}

function isScalar(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'object') return true;
  if (v instanceof Date) return true;
  const t = (v as { _bsontype?: string })._bsontype;
  return t === 'ObjectId' || t === 'Long' || t === 'Int32' || t === 'Double' || t === 'Decimal128';
}

export function equalityPlan(filter: Document): EqualityPlan | null {
  const fields: EqualityPlan['fields'] = [];
  for (const [path, cond] of Object.entries(filter)) {
    if (path.startsWith('$')) return null;
    let values: unknown[];
    if (isScalar(cond)) values = [cond];
    else if (isPlainObject(cond)) {
      const ops = Object.keys(cond);
      if (ops.length !== 1) return null;
      if (ops[0] === '$eq' && isScalar(cond.$eq)) values = [cond.$eq];
      else if (ops[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(isScalar))
        values = cond.$in;
      else return null;
    } else return null;
    fields.push({ path, values, keys: new Set(values.map(canonicalKey)) });
  }
  return { fields };
}

function planPredicate(plan: EqualityPlan): Predicate {
  const tests = plan.fields.map(fieldTest);
  if (tests.length === 1) return tests[0];
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}

/**
 * One field of an equality plan. Every value the path reaches (array elements too) is compared
 * by its canonical key; when the allowed values are all plain numbers and strings, a top-level
 * field holding a plain number or string (ids, types, statuses: nearly every test) is looked up
 * as it is, which is the same answer without building a key string per document.
 */
function fieldTest({ path, keys, values }: EqualityPlan['fields'][number]): Predicate {
  const general: Predicate = (doc) => {
    for (const v of valuesAtPath(doc, path, true)) if (keys.has(canonicalKey(v))) return true;
    return false;
  };
  if (path.includes('.') || !values.every((v) => typeof v === 'number' || typeof v === 'string'))
    return general;
  // A Set compares numbers by SameValueZero: -0 equals 0 and NaN equals NaN, as canonical keys do.
  const numbers = new Set(values.filter((v): v is number => typeof v === 'number'));
  const strings = new Set(values.filter((v): v is string => typeof v === 'string'));
  return (doc) => {
    const v = doc[path];
    if (typeof v === 'number') return numbers.has(v);
    if (typeof v === 'string') return strings.has(v);
    return general(doc);
  };
}

const cache = new Map<string, Predicate>();
const CACHE_LIMIT = 2000;

/** A cache key that tells apart every filter mingo would compile differently. */
function filterKey(v: unknown): string {
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  if (Array.isArray(v)) return `[${v.map(filterKey).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${filterKey(x)}`)
      .join(',')}}`;
  }
  return `${typeName(v)}:${canonicalKey(v)}`;
}

type RangeTest = (value: number, bound: number) => boolean;

const RANGE_TESTS: Record<string, RangeTest> = {
  $lt: (value, bound) => value < bound,
  $lte: (value, bound) => value <= bound,
  $gt: (value, bound) => value > bound,
  $gte: (value, bound) => value >= bound,
};

interface RangePlan {
  equality: EqualityPlan;
  ranges: Array<{ path: string; tests: Array<[RangeTest, number]> }>;
}

/**
 * Equality conditions plus numeric ranges (`{item_id: 7, id: {$lt: 900}}`, what trims and
 * pagination send), when a filter is nothing but those and has a range; null otherwise.
 */
function rangePlan(filter: Document): RangePlan | null {
  const equalities: Document = {};
  const ranges: RangePlan['ranges'] = [];
  for (const [path, cond] of Object.entries(filter)) {
    const ops = isPlainObject(cond) ? Object.keys(cond) : [];
    if (path.startsWith('$') || !ops.length || !ops.every((op) => op in RANGE_TESTS)) {
      equalities[path] = cond;
      continue;
    }
    const tests: Array<[RangeTest, number]> = [];
    for (const op of ops) {
      const bound = (cond as Document)[op];
      if (typeof bound !== 'number' || !Number.isFinite(bound)) return null;
      tests.push([RANGE_TESTS[op], bound]);
    }
    ranges.push({ path, tests });
  }
  const equality = equalityPlan(equalities);
  return ranges.length && equality ? { equality, ranges } : null;
}

/**
 * The range plan's predicate: the equalities as `planPredicate` tests them; a range field
 * holding one plain number is tested directly, a missing or null one fails (as in MongoDB), and
 * anything else (arrays, Longs, NaN, other types) goes to mingo.
 */
function rangePredicate(plan: RangePlan, filter: Document): Predicate {
  const equal = planPredicate(plan.equality);
  let full: Predicate | undefined;
  return (doc) => {
    if (!equal(doc)) return false;
    for (const { path, tests } of plan.ranges) {
      const values = valuesAtPath(doc, path, true);
      const [value] = values;
      if (values.length === 1 && (value === undefined || value === null)) return false;
      if (values.length !== 1 || typeof value !== 'number' || Number.isNaN(value))
        return (full ??= mingoPredicate(filter))(doc);
      for (const [test, bound] of tests) if (!test(value, bound)) return false;
    }
    return true;
  };
}

export function compileFilter(filter: Document | undefined | null): Predicate {
  if (!filter || Object.keys(filter).length === 0) return () => true;
  const plan = equalityPlan(filter);
  if (plan) return planPredicate(plan);
  const ranges = rangePlan(filter);
  if (ranges) return rangePredicate(ranges, filter);
  return mingoPredicate(filter);
}

function mingoPredicate(filter: Document): Predicate {
  const normalised = normaliseFilter(filter) as Document;
  const key = filterKey(normalised);
  let predicate = cache.get(key);
  if (!predicate) {
    let query: Query;
    try {
      query = new Query(normalised, mingoOptions());
    } catch (err) {
      return fail(ErrorCodes.BadValue, (err as Error).message);
    }
    predicate = (doc) => query.test(doc);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, predicate);
  }
  return predicate;
}

/** `$count` as MongoDB defines it: a `$group` + `$project`, so empty input yields no document. */
function expandCount(pipeline: Document[]): Document[] {
  return pipeline.flatMap((stage) =>
    typeof stage.$count === 'string'
      ? [{ $group: { _id: null, [stage.$count]: { $sum: 1 } } }, { $project: { _id: 0 } }]
      : [stage],
  );
}

/** A top-level field reference (`'$to_uid'`): the field's name, else undefined. */
function fieldReference(expr: unknown): string | undefined {
  return typeof expr === 'string' && /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(expr)
    ? expr.slice(1)
    : undefined;
}

const isGroupConstant = (v: unknown) =>
  v === null || ['number', 'string', 'boolean'].includes(typeof v);

/**
 * `$group` by a top-level field or a constant with only `$sum` of a number or a top-level field
 * (what counts per user and `countDocuments` send), done without mingo: one pass, one canonical
 * key per document. Null when the stage has another shape, or a summed field holds a BSON number
 * wrapper (mingo's arithmetic handles those); the caller then runs the stage in mingo.
 */
function simpleGroup(docs: Document[], spec: unknown): Document[] | null {
  if (!isPlainObject(spec) || !('_id' in spec)) return null;
  const idField = fieldReference(spec._id);
  if (idField === undefined && !isGroupConstant(spec._id)) return null;
  const sums: Array<{ name: string; constant?: number; field?: string }> = [];
  for (const [name, acc] of Object.entries(spec)) {
    if (name === '_id') continue;
    if (!isPlainObject(acc) || Object.keys(acc).length !== 1 || !('$sum' in acc)) return null;
    const arg = acc.$sum;
    if (typeof arg === 'number') sums.push({ name, constant: arg });
    else {
      const field = fieldReference(arg);
      if (field === undefined) return null;
      sums.push({ name, field });
    }
  }
  const groups = new Map<string, Document>();
  for (const doc of docs) {
    const id = idField === undefined ? spec._id : (doc[idField] ?? null);
    const key = canonicalKey(id);
    let group = groups.get(key);
    if (!group) {
      group = { _id: id };
      for (const sum of sums) group[sum.name] = 0;
      groups.set(key, group);
    }
    for (const sum of sums) {
      if (sum.constant !== undefined) {
        group[sum.name] += sum.constant;
        continue;
      }
      const v = doc[sum.field!];
      if (typeof v === 'number') group[sum.name] += v;
      else if (isBsonNumber(v)) return null;
    }
  }
  return [...groups.values()];
}

function isBsonNumber(v: unknown): boolean {
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  return t === 'Long' || t === 'Int32' || t === 'Double' || t === 'Decimal128';
}

export function runPipeline(
  docs: Document[],
  pipeline: Document[],
  resolve: (name: string) => Document[],
): Document[] {
  const [first, ...rest] = pipeline;
  const grouped = first && Object.keys(first).length === 1 ? simpleGroup(docs, first.$group) : null;
  if (grouped) return rest.length ? runPipeline(grouped, rest, resolve) : grouped;
  const normalised = normaliseFilter(expandCount(pipeline)) as Document[];
  try {
    return new Aggregator(normalised, mingoOptions(resolve)).run(docs) as Document[];
  } catch (err) {
    if ((err as { code?: unknown }).code !== undefined && err instanceof Error && 'extra' in err)
      throw err;
    return fail(ErrorCodes.BadValue, (err as Error).message);
  }
}
