/**
 * One collection in memory: documents keyed by their canonical `_id`, in insertion order, and
 * its indexes. Indexes are hash maps (canonical key → ids): they enforce uniqueness and answer
 * equality / `$in` lookups on their leading field (on every field, for a compound unique index
 * whose fields a query all names). Range queries and sorts scan; at Quire's
 * sizes (thousands of pages per item) that is cheaper than maintaining ordered trees.
 *
 * Stored documents are never mutated (see types.ts): writers hand in new objects.
 */
import type { Document } from 'bson';
import type { IndexSpec } from './types';
import { canonicalKey, isPlainObject, renderValue, valuesAtPath } from './values';
import { compileFilter, type Predicate } from './matcher';
import { ErrorCodes, fail } from './errors';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * Ids under one key: a single id (a unique index's usual case, and most keys of a selective one)
 * or a set of them. A set is only made for a second id: a key per document (the `id` of
 * messages, a compound key ending in it) costs one map entry, not a map entry and a set.
 */
export type IdsAtKey = string | Set<string>;

/** The keys one document contributes to an index: full keys (unique indexes) and lead keys. */
export interface DocKeys {
  full: string[];
  lead: string[];
}

export class Index {
  readonly spec: IndexSpec;
  readonly fields: string[];
  private readonly partial: Predicate | null;
  /** Every field is a top-level name: a document's value is `doc[field]`, no path walk. */
  private readonly topLevel: boolean;
  /**
   * Unique indexes: full key → ids (normally one; more only inside the check that refuses it).
   * Non-unique indexes keep none: only their leading field answers lookups.
   */
  private full: Map<string, IdsAtKey> | null;
  /** Leading-field key → ids; used to narrow queries. A one-field unique index shares `full`. */
  private lead: Map<string, IdsAtKey>;
  /**
   * Some document gave the leading field more than one key (an array): only then can one id sit
   * under several lead keys, so only then must a lookup of several keys drop repeats.
   */
  multikey = false;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.partial = spec.partialFilterExpression
      ? compileFilter(spec.partialFilterExpression)
      : null;
    this.topLevel = this.fields.every((f) => !f.includes('.'));
    this.lead = new Map();
    this.full = !spec.unique ? null : this.fields.length === 1 ? this.lead : new Map();
  }

  get name(): string {
    return this.spec.name;
  }

  get unique(): boolean {
    return Boolean(this.spec.unique);
  }

  /** Usable for equality lookups on its first field (a sparse or partial index may miss docs). */
  get answersEquality(): boolean {
    return (
      !this.spec.sparse &&
      !this.partial &&
      !Object.values(this.spec.key).some((v) => typeof v === 'string')
    );
  }

  get ttlSeconds(): number | undefined {
    return typeof this.spec.expireAfterSeconds === 'number' && this.fields.length === 1
      ? this.spec.expireAfterSeconds
      : undefined;
  }

  /**
   * The keys a document contributes (one per combination of array elements, as a multikey index
   * has), each with the values that make it up; null when the index leaves the document out.
   */
  keysOf(
    doc: Document,
  ): { full: Array<{ key: string; values: unknown[] }>; lead: string[] } | null {
    if (this.partial && !this.partial(doc)) return null;
    const perField: Array<Array<[string, unknown]>> = [];
    let present = false;
    for (const field of this.fields) {
      const entries = new Map<string, unknown>();
      for (const v of valuesAtPath(doc, field)) {
        if (v !== undefined) present = true;
        if (Array.isArray(v)) {
          if (v.length === 0) entries.set(canonicalKey(undefined), null);
          for (const el of v) entries.set(canonicalKey(el), el);
        } else entries.set(canonicalKey(v), v ?? null);
      }
      perField.push([...entries]);
    }
    if (this.spec.sparse && !present) return null;
    let full: Array<{ key: string; values: unknown[] }> = [{ key: '', values: [] }];
    for (const entries of perField) {
      full = full.flatMap((prefix) =>
        entries.map(([k, v]) => ({
          key: prefix.values.length ? `${prefix.key}|${k}` : k,
          values: [...prefix.values, v],
        })),
      );
    }
    return { full, lead: perField[0].map(([k]) => k) };
  }

  /**
   * The key strings of a document, as keysOf has them (null: the index leaves it out), which
   * `put` finds once per document and index. Top-level fields holding no array (nearly every
   * document of every index) take a direct path: one string per key, no walk.
   */
  keysFor(doc: Document): DocKeys | null {
    // Only its leading field matters to a non-unique index that leaves no document out.
    if (!this.full && !this.partial && !this.spec.sparse) {
      const v = doc[this.fields[0]];
      if (this.fields[0].includes('.') || Array.isArray(v))
        return { full: [], lead: this.keysOf(doc)!.lead };
      return { full: [], lead: [canonicalKey(v)] };
    }
    if (this.topLevel) {
      let key = '';
      let lead = '';
      let present = false;
      let simple = true;
      for (let i = 0; i < this.fields.length; i++) {
        const v = doc[this.fields[i]];
        if (Array.isArray(v)) {
          simple = false;
          break;
        }
        if (v !== undefined) present = true;
        const k = canonicalKey(v);
        if (i === 0) key = lead = k;
        else key = `${key}|${k}`;
      }
      if (simple) {
        if (this.partial && !this.partial(doc)) return null;
        if (this.spec.sparse && !present) return null;
        return { full: this.full ? [key] : [], lead: [lead] };
      }
    }
    const keys = this.keysOf(doc);
    if (!keys) return null;
    return { full: this.full ? keys.full.map((k) => k.key) : [], lead: keys.lead };
  }

  /** Throws E11000 if adding `doc` (id `idKey`) would duplicate another document's key. */
  checkUnique(doc: Document, idKey: string, ns: string, keys = this.keysFor(doc)): void {
    if (!this.full || !keys) return;
    for (const key of keys.full) {
      const holders = this.full.get(key);
      if (holders === undefined || holders === idKey) continue;
      if (typeof holders !== 'string' && holders.size === 1 && holders.has(idKey)) continue;
      // The error names the values: found again on the slow path, only when it is thrown.
      const values = this.keysOf(doc)!.full.find((k) => k.key === key)!.values;
      const keyValue: Document = {};
      this.fields.forEach((f, i) => (keyValue[f] = values[i]));
      const rendered = this.fields.map((f, i) => `${f}: ${renderValue(values[i])}`).join(', ');
      fail(
        ErrorCodes.DuplicateKey,
        `E11000 duplicate key error collection: ${ns} index: ${this.name} dup key: { ${rendered} }`,
        {
          keyPattern: { ...this.spec.key },
          keyValue,
        },
      );
    }
  }

  add(doc: Document, idKey: string, keys = this.keysFor(doc)): void {
    if (!keys) return;
    if (this.full && this.full !== this.lead)
      for (const key of keys.full) addTo(this.full, key, idKey);
    if (keys.lead.length > 1) this.multikey = true;
    for (const k of keys.lead) addTo(this.lead, k, idKey);
  }

  remove(doc: Document, idKey: string, keys = this.keysFor(doc)): void {
    if (!keys) return;
    if (this.full && this.full !== this.lead)
      for (const key of keys.full) removeFrom(this.full, key, idKey);
    for (const k of keys.lead) removeFrom(this.lead, k, idKey);
  }

  idsForLeadKey(key: string): IdsAtKey | undefined {
    return this.lead.get(key);
  }

  /** A compound unique index: its full keys answer equality on all its fields at once. */
  get hasFullKeys(): boolean {
    return this.full !== null && this.full !== this.lead;
  }

  /** Ids under a full key (`k0|k1|…` of canonical keys), on an index with full keys. */
  idsForFullKey(key: string): IdsAtKey | undefined {
    return this.full?.get(key);
  }

  clone(): Index {
    const copy = new Index(this.spec);
    copy.multikey = this.multikey;
    for (const [k, ids] of this.lead)
      copy.lead.set(k, typeof ids === 'string' ? ids : new Set(ids));
    if (this.full && this.full !== this.lead)
      for (const [k, ids] of this.full)
        copy.full!.set(k, typeof ids === 'string' ? ids : new Set(ids));
    return copy;
  }
}

/** Same keys in the same order: an update that leaves an index's fields alone keeps its entries. */
function sameKeys(a: DocKeys | null, b: DocKeys | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.full.length !== b.full.length || a.lead.length !== b.lead.length) return false;
  for (let i = 0; i < a.full.length; i++) if (a.full[i] !== b.full[i]) return false;
  for (let i = 0; i < a.lead.length; i++) if (a.lead[i] !== b.lead[i]) return false;
  return true;
}

function addTo(map: Map<string, IdsAtKey>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids === undefined) map.set(key, id);
  else if (typeof ids === 'string') {
    if (ids !== id) map.set(key, new Set([ids, id]));
  } else ids.add(id);
}

function removeFrom(map: Map<string, IdsAtKey>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids === undefined) return;
  if (typeof ids === 'string') {
    if (ids === id) map.delete(key);
    return;
  }
  ids.delete(id);
  if (ids.size === 1) map.set(key, ids.values().next().value as string);
  else if (ids.size === 0) map.delete(key);
}

/** Equality conditions a query offers on top-level paths (from the filter and its `$and`). */
function equalityConditions(
  filter: Document,
  out = new Map<string, unknown[]>(),
): Map<string, unknown[]> {
  for (const [path, cond] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(cond)) {
      for (const sub of cond) if (isPlainObject(sub)) equalityConditions(sub, out);
      continue;
    }
    if (path.startsWith('$')) continue;
    if (isLookupScalar(cond)) out.set(path, [cond]);
    else if (isPlainObject(cond)) {
      if ('$eq' in cond && isLookupScalar(cond.$eq)) out.set(path, [cond.$eq]);
      else if (Array.isArray(cond.$in) && cond.$in.every(isLookupScalar)) out.set(path, cond.$in);
    }
  }
  return out;
}

/** Full keys tried at most for one query (the product of its lists of values). */
const MAX_FULL_KEYS = 4096;

/**
 * The full keys (as Index.keysFor builds them) a query's equality conditions name when it
 * constrains every field of the index; null when it leaves one out or names too many.
 */
function fullKeysOf(fields: string[], conditions: Map<string, unknown[]>): Set<string> | null {
  let keys = [''];
  for (let i = 0; i < fields.length; i++) {
    const values = conditions.get(fields[i]);
    if (!values) return null;
    const parts = [...new Set(values.map(canonicalKey))];
    if (keys.length * parts.length > MAX_FULL_KEYS) return null;
    keys = keys.flatMap((prefix) => parts.map((part) => (i === 0 ? part : `${prefix}|${part}`)));
  }
  return new Set(keys);
}

function isLookupScalar(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'object') return true;
  if (v instanceof Date) return true;
  const t = (v as { _bsontype?: string })._bsontype;
  return t === 'ObjectId' || t === 'Long' || t === 'Int32' || t === 'Double';
}

export class Collection {
  readonly db: string;
  name: string;
  options: Document;
  docs = new Map<string, Document>();
  indexes = new Map<string, Index>();
  /**
   * Store sequence number of the last change per document (write-conflict checks), kept only
   * for changes made while a transaction is open: a transaction conflicts only on changes after
   * its own start, so with none open there is nothing to compare against.
   */
  versions = new Map<string, number>();

  constructor(db: string, name: string, options: Document = {}, indexes: IndexSpec[] = [ID_INDEX]) {
    this.db = db;
    this.name = name;
    this.options = options;
    for (const spec of indexes)
      if (spec.name !== '_id_') this.indexes.set(spec.name, new Index(spec));
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((i) => i.spec)];
  }

  get(idKey: string): Document | undefined {
    return this.docs.get(idKey);
  }

  /**
   * Inserts or replaces by `_id`, enforcing unique indexes first so a failure changes nothing.
   * Each index's keys are found once per document; an index whose keys the change leaves as
   * they were is not touched. `seq`: the change's sequence number to remember (0: none, no
   * transaction is open).
   */
  put(doc: Document, seq: number): void {
    const idKey = canonicalKey(doc._id);
    const previous = this.docs.get(idKey);
    const plans: Array<{ index: Index; keys: DocKeys | null; old: DocKeys | null }> = [];
    for (const index of this.indexes.values()) {
      const keys = index.keysFor(doc);
      const old = previous ? index.keysFor(previous) : null;
      if (previous && sameKeys(keys, old)) continue;
      // A document's own entries never clash with it: the check skips holders that are it.
      if (index.unique) index.checkUnique(doc, idKey, this.ns, keys);
      plans.push({ index, keys, old });
    }
    for (const { index, keys, old } of plans) {
      if (previous) index.remove(previous, idKey, old);
      index.add(doc, idKey, keys);
    }
    this.docs.set(idKey, doc);
    if (seq) this.versions.set(idKey, seq);
  }

  /**
   * Forgets the versions at or before `seq` (the start of the oldest open transaction, or now
   * when none is open): no transaction can conflict on them any more.
   */
  forgetVersionsUpTo(seq: number): void {
    for (const [idKey, version] of this.versions) if (version <= seq) this.versions.delete(idKey);
  }

  remove(idKey: string, seq: number): Document | undefined {
    const doc = this.docs.get(idKey);
    if (!doc) return undefined;
    for (const index of this.indexes.values()) index.remove(doc, idKey);
    this.docs.delete(idKey);
    if (seq) this.versions.set(idKey, seq);
    return doc;
  }

  addIndex(spec: IndexSpec): void {
    const index = new Index(spec);
    for (const [idKey, doc] of this.docs) {
      index.checkUnique(doc, idKey, this.ns);
      index.add(doc, idKey);
    }
    this.indexes.set(spec.name, index);
  }

  /** Documents that may match `filter`, narrowed by `_id` or the most selective usable index. */
  candidates(filter: Document | undefined): Iterable<Document> {
    if (!filter) return this.docs.values();
    const conditions = equalityConditions(filter);
    if (conditions.size === 0) return this.docs.values();
    const ids = conditions.get('_id');
    if (ids) {
      const unique = new Set(ids.map(canonicalKey));
      return [...unique].map((k) => this.docs.get(k)).filter((d): d is Document => d !== undefined);
    }
    // The index with the fewest ids is picked by the sizes of its sets, and only its ids are
    // copied: a page save's {page_id, item_id} used to copy every page id of the item first.
    let best: IdsAtKey[] | null = null;
    let bestSize = 0;
    let bestMultikey = false;
    for (const index of this.indexes.values()) {
      if (!index.answersEquality) continue;
      const values = conditions.get(index.fields[0]);
      if (!values) continue;
      // Every field of a compound unique index constrained: its full keys narrow to the exact
      // rows (a lookup of names in one item no longer walks every row of the item).
      const full = index.hasFullKeys ? fullKeysOf(index.fields, conditions) : null;
      const sets: IdsAtKey[] = [];
      let size = 0;
      for (const key of full ?? new Set(values.map(canonicalKey))) {
        const ids = full ? index.idsForFullKey(key) : index.idsForLeadKey(key);
        if (ids !== undefined) {
          sets.push(ids);
          size += typeof ids === 'string' ? 1 : ids.size;
        }
      }
      if (!best || size < bestSize) {
        best = sets;
        bestSize = size;
        // Arrays in any field put a document under several full keys.
        bestMultikey = index.multikey || full !== null;
      }
      if (bestSize === 0) break;
    }
    if (!best) return this.docs.values();
    const out: Document[] = [];
    // Different keys of an index hold different documents unless one document has several.
    const seen = best.length > 1 && bestMultikey ? new Set<string>() : null;
    for (const ids of best)
      for (const id of typeof ids === 'string' ? [ids] : ids) {
        if (seen) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        const doc = this.docs.get(id);
        if (doc !== undefined) out.push(doc);
      }
    return out;
  }

  find(filter: Document | undefined, predicate: Predicate = compileFilter(filter)): Document[] {
    const out: Document[] = [];
    for (const doc of this.candidates(filter)) if (predicate(doc)) out.push(doc);
    return out;
  }

  /** A copy that can be changed without touching this one (transactions work on copies). */
  clone(): Collection {
    const copy = new Collection(this.db, this.name, this.options, []);
    copy.docs = new Map(this.docs);
    copy.versions = new Map(this.versions);
    for (const [name, index] of this.indexes) copy.indexes.set(name, index.clone());
    return copy;
  }
}
