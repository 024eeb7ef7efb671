/**
 * Update documents: operator updates (through mingo's updater, after the checks MongoDB makes and
 * mingo skips), replacements, aggregation-pipeline updates, and the seed document of an upsert.
 */
import { update as mingoUpdate } from 'mingo/updater';
import type { Document } from 'bson';
import {
  cloneDocument,
  getPath,
  isPlainObject,
  nowTimestamp,
  renderValue,
  typeName,
  valuesEqual,
  compareValues,
} from './values';
import { mingoOptions, normaliseFilter, runPipeline } from './matcher';
import { ErrorCodes, fail } from './errors';
import { exactArithmetic, needsExactArithmetic } from './numeric';

const NUMERIC_OPS = new Set(['$inc', '$mul']);
const ARRAY_OPS = new Set(['$push', '$addToSet', '$pop', '$pull', '$pullAll']);
const KNOWN_OPS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$setOnInsert',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$bit',
]);

export type UpdateSpec = Document | Document[];

export function isOperatorUpdate(u: UpdateSpec): boolean {
  if (Array.isArray(u)) return false;
  const keys = Object.keys(u);
  return keys.length > 0 && keys[0].startsWith('$');
}

export function validateUpdate(u: unknown): UpdateSpec {
  if (Array.isArray(u)) return u as Document[];
  if (!isPlainObject(u))
    fail(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  const ops = keys.filter((k) => k.startsWith('$'));
  if (ops.length && ops.length !== keys.length)
    fail(ErrorCodes.FailedToParse, 'Update document mixes operators and fields');
  for (const op of ops) {
    if (!KNOWN_OPS.has(op))
      fail(
        ErrorCodes.FailedToParse,
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(u[op]))
      fail(
        ErrorCodes.FailedToParse,
        `Modifiers operate on fields but we found type ${typeName(u[op])} instead.`,
      );
  }
  if (!ops.length) {
    for (const k of keys)
      if (k.includes('$') && k.startsWith('$'))
        fail(ErrorCodes.BadValue, `The dollar ($) prefixed field '${k}' is not valid`);
  }
  return u;
}

interface ApplyOptions {
  arrayFilters?: Document[];
  filter?: Document;
  inserting?: boolean;
}

/** Returns the updated copy of `doc` (or `doc` itself when nothing changed). */
export function applyUpdate(
  doc: Document,
  u: UpdateSpec,
  opts: ApplyOptions = {},
): { doc: Document; changed: boolean } {
  if (Array.isArray(u)) {
    const [out] = runPipeline([doc], u, () => []);
    const next = { _id: doc._id, ...out };
    checkIdUnchanged(doc, next);
    return { doc: next, changed: !valuesEqual(doc, next) };
  }
  if (!isOperatorUpdate(u)) {
    const next: Document = { _id: doc._id, ...u };
    if (u._id !== undefined) {
      next._id = u._id;
      checkIdUnchanged(doc, next);
    }
    return { doc: next, changed: !valuesEqual(doc, next) };
  }
  const modifier: Document = {};
  for (const [op, spec] of Object.entries(u)) {
    if (op === '$setOnInsert') {
      if (opts.inserting) modifier.$set = { ...(modifier.$set ?? {}), ...spec };
    } else if (op === '$currentDate') {
      const set: Document = {};
      for (const [path, how] of Object.entries(spec as Document)) {
        set[path] = isPlainObject(how) && how.$type === 'timestamp' ? nowTimestamp() : new Date();
      }
      modifier.$set = { ...(modifier.$set ?? {}), ...set };
    } else {
      modifier[op] = op === '$set' && modifier.$set ? { ...modifier.$set, ...spec } : spec;
    }
  }
  checkIdNotTouched(doc, modifier);
  checkOperandTypes(doc, modifier);
  exactNumericUpdates(doc, modifier);
  if (!opts.arrayFilters) {
    const quick = topLevelUpdate(doc, modifier);
    if (quick) return quick;
  }
  const next = cloneDocument(doc);
  let changedPaths: string[];
  try {
    changedPaths = mingoUpdate(
      next,
      modifier,
      opts.arrayFilters,
      opts.filter ? (normaliseFilter(opts.filter) as Document) : undefined,
      {
        cloneMode: 'deep',
        queryOptions: mingoOptions(),
      },
    );
  } catch (err) {
    return fail(ErrorCodes.BadValue, (err as Error).message);
  }
  checkIdUnchanged(doc, next);
  return changedPaths.length
    ? { doc: next, changed: !valuesEqual(doc, next) }
    : { doc, changed: false };
}

const QUICK_NUMERIC_OPS = new Set(['$inc', '$max', '$min']);

/** A JavaScript number other than NaN (whose ordering MongoDB defines apart), or absent. */
function plainNumberOrAbsent(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && !Number.isNaN(value));
}

/**
 * `$set` of top-level fields, and `$inc`, `$max` and `$min` of top-level JavaScript numbers —
 * nearly every update Quire sends (a page save, a counter, an item's `last_update_time`) —
 * applied directly; undefined for anything else (dotted paths, other operators, BSON numbers,
 * NaN), which goes to mingo. Same result: the document is copied, set values are cloned, an
 * unchanged document is answered as unchanged.
 */
function topLevelUpdate(
  doc: Document,
  modifier: Document,
): { doc: Document; changed: boolean } | undefined {
  for (const [op, spec] of Object.entries(modifier)) {
    if (op !== '$set' && !QUICK_NUMERIC_OPS.has(op)) return undefined;
    for (const [path, operand] of Object.entries(spec as Document)) {
      if (path.includes('.') || path.includes('$')) return undefined;
      if (op !== '$set' && (typeof operand !== 'number' || !plainNumberOrAbsent(doc[path])))
        return undefined;
      if (op !== '$set' && op !== '$inc' && Number.isNaN(operand)) return undefined;
    }
  }
  const next: Document = { ...doc };
  let changed = false;
  for (const [op, spec] of Object.entries(modifier))
    for (const [path, operand] of Object.entries(spec as Document)) {
      const current = doc[path] as number | undefined;
      let value: unknown;
      if (op === '$set') value = cloneDocument(operand);
      else if (op === '$inc') value = (current ?? 0) + operand;
      else if (current === undefined) value = operand;
      else value = op === '$max' ? Math.max(current, operand) : Math.min(current, operand);
      if (!changed && (!(path in doc) || !valuesEqual(doc[path], value))) changed = true;
      next[path] = value;
    }
  return changed ? { doc: next, changed } : { doc, changed: false };
}

function checkIdUnchanged(before: Document, after: Document): void {
  if (before._id !== undefined && !valuesEqual(before._id, after._id)) {
    fail(
      ErrorCodes.ImmutableField,
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
}

/** Moves `$inc`/`$mul` on Longs and Decimal128s into `$set` with the exact result. */
function exactNumericUpdates(doc: Document, modifier: Document): void {
  for (const op of ['$inc', '$mul'] as const) {
    if (!modifier[op]) continue;
    const spec: Document = { ...(modifier[op] as Document) };
    modifier[op] = spec;
    for (const [path, operand] of Object.entries(spec)) {
      if (path.includes('$')) continue;
      const current = getPath(doc, path);
      if (!needsExactArithmetic(current, operand)) continue;
      modifier.$set = { ...(modifier.$set ?? {}), [path]: exactArithmetic(op, current, operand) };
      delete spec[path];
    }
    if (Object.keys(spec).length === 0) delete modifier[op];
  }
}

/** `_id` may be $set to its own value, and nothing else may touch it. */
function checkIdNotTouched(doc: Document, modifier: Document): void {
  for (const [op, spec] of Object.entries(modifier)) {
    for (const path of Object.keys(spec as Document)) {
      const targets = op === '$rename' ? [path, String((spec as Document)[path])] : [path];
      for (const target of targets) {
        if (target !== '_id' && !target.startsWith('_id.')) continue;
        if (op === '$set' && target === '_id' && valuesEqual((spec as Document)._id, doc._id))
          continue;
        fail(
          ErrorCodes.ImmutableField,
          "Performing an update on the path '_id' would modify the immutable field '_id'",
        );
      }
    }
  }
}

/** MongoDB refuses $inc on non-numbers and array operators on non-arrays; mingo does not. */
function checkOperandTypes(doc: Document, modifier: Document): void {
  const seen = new Map<string, string>();
  for (const [op, spec] of Object.entries(modifier)) {
    for (const [path, operand] of Object.entries(spec as Document)) {
      const root = path.split('.')[0];
      const earlier = [...seen.keys()].find(
        (p) => p === path || p.startsWith(`${path}.`) || path.startsWith(`${p}.`),
      );
      if (earlier !== undefined) {
        fail(
          ErrorCodes.ConflictingUpdateOperators,
          `Updating the path '${path}' would create a conflict at '${earlier.length < path.length ? earlier : root}'`,
        );
      }
      seen.set(path, op);
      if (
        NUMERIC_OPS.has(op) &&
        !['long', 'decimal', 'int', 'double'].includes(typeName(operand))
      ) {
        fail(
          ErrorCodes.TypeMismatch,
          `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${renderValue(operand)}}`,
        );
      }
      if (path.includes('$')) continue;
      const current = getPath(doc, path);
      if (current === undefined) continue;
      if (NUMERIC_OPS.has(op)) {
        if (!['int', 'long', 'double', 'decimal'].includes(typeName(current))) {
          fail(
            ErrorCodes.TypeMismatch,
            `Cannot apply ${op} to a value of non-numeric type. {_id: ${renderValue(doc._id)}} has the field '${path}' of non-numeric type ${typeName(current)}`,
          );
        }
      }
      if (ARRAY_OPS.has(op) && !Array.isArray(current)) {
        if (op === '$pull' || op === '$pullAll')
          fail(ErrorCodes.BadValue, `Cannot apply ${op} to a non-array value`);
        fail(
          ErrorCodes.BadValue,
          `The field '${path}' must be an array but is of type ${typeName(current)} in document {_id: ${renderValue(doc._id)}}`,
        );
      }
    }
  }
}

/** The document an upsert starts from: the filter's equality conditions (incl. `$and`). */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  const visit = (f: Document) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) v.forEach((sub) => isPlainObject(sub) && visit(sub));
      if (k.startsWith('$')) continue;
      let value: unknown;
      if (isPlainObject(v)) {
        const ops = Object.keys(v);
        if (ops.length === 1 && ops[0] === '$eq') value = v.$eq;
        else if (ops.some((o) => o.startsWith('$'))) continue;
        else value = v;
      } else if (
        v instanceof RegExp ||
        (v as { _bsontype?: string } | null)?._bsontype === 'BSONRegExp'
      )
        continue;
      else value = v;
      setPath(seed, k, cloneDocument(value));
    }
  };
  visit(filter);
  return seed;
}

function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(cur[parts[i]])) cur[parts[i]] = {};
    cur = cur[parts[i]] as Document;
  }
  cur[parts[parts.length - 1]] = value;
}

/**
 * Documents in the order of a MongoDB sort spec (arrays sort by their min/max element), stable.
 * Each document's keys are computed once, not once per comparison: sorts run on every trimmed
 * log and history write, so this is on the save path.
 */
export function sortDocuments(docs: Document[], spec: Document): Document[] {
  const fields = Object.entries(spec).map(([path, dir]) => ({
    path,
    dir: Number(dir) < 0 ? -1 : 1,
    simple: !path.includes('.'),
  }));
  const keyed = docs.map((doc) => ({
    doc,
    keys: fields.map(({ path, dir, simple }) => sortKey(doc, path, dir, simple)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const c = compareValues(a.keys[i], b.keys[i]);
      if (c) return c * fields[i].dir;
    }
    return 0;
  });
  return keyed.map((k) => k.doc);
}

const EMPTY_ARRAY_KEY = { _bsontype: 'MinKey' };

function sortKey(doc: Document, path: string, dir: number, simple: boolean): unknown {
  if (simple && !Array.isArray(doc[path])) return doc[path];
  const values = simple ? [doc[path]] : collect(doc, path);
  let best: unknown;
  let first = true;
  for (const v of values.flatMap((x) =>
    Array.isArray(x) ? (x.length ? x : [EMPTY_ARRAY_KEY]) : [x],
  )) {
    if (first || compareValues(v, best) * dir < 0) best = v;
    first = false;
  }
  return best;
}

function collect(doc: Document, path: string): unknown[] {
  let current: unknown[] = [doc];
  for (const seg of path.split('.')) {
    const next: unknown[] = [];
    for (const v of current) {
      if (Array.isArray(v)) {
        for (const el of v) if (isPlainObject(el)) next.push(el[seg]);
      } else if (isPlainObject(v)) next.push(v[seg]);
      else next.push(undefined);
    }
    current = next;
  }
  return current;
}
