/**
 * BSON value semantics the engine needs beyond what mingo gives: MongoDB's cross-type sort
 * order, equality that treats 1, 1.0 and Long(1) alike, canonical keys for hash indexes, path
 * traversal through arrays, and a clone that keeps BSON classes intact.
 */
import { ObjectId, Timestamp, type Document } from 'bson';

type Bsonish = { _bsontype?: string };

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' ? (v as Bsonish)._bsontype : undefined;
}

export function isPlainObject(v: unknown): v is Document {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v) || v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v))
    return false;
  return bsonType(v) === undefined;
}

/**
 * Gives every Binary in a decoded value its own bytes. bson decodes a Binary as a view into the
 * buffer it read (a wire message's socket chunk, up to 64 KB; a journal or snapshot record), so
 * a stored Binary of a few hundred bytes would keep that whole buffer alive for as long as the
 * document is stored. Views that already span their whole buffer are left as they are.
 */
export function ownBinaries(v: unknown): void {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const item of v) ownBinaries(item);
    return;
  }
  const type = bsonType(v);
  if (type === 'Binary') {
    const binary = v as { buffer: Uint8Array };
    if (binary.buffer.byteLength !== binary.buffer.buffer.byteLength)
      // Not Buffer.from(view): a small copy would land in Buffer's shared 8 KB pool.
      binary.buffer = Buffer.from(new Uint8Array(binary.buffer).buffer);
    return;
  }
  if (type !== undefined || v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v))
    return;
  for (const key in v) ownBinaries((v as Document)[key]);
}

/** MongoDB's comparison order of BSON types (lower sorts first). */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
  }
  if (Array.isArray(v)) return 6;
  if (v instanceof Date) return 10;
  if (v instanceof RegExp) return 12;
  switch (bsonType(v)) {
    case 'MinKey':
      return 1;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return 3;
    case 'BSONSymbol':
      return 4;
    case 'Binary':
    case 'UUID':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'MaxKey':
      return 14;
  }
  if (ArrayBuffer.isView(v)) return 7;
  return 5; // embedded document
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const t = bsonType(v);
  if (t === 'Long') return (v as unknown as { toNumber(): number }).toNumber();
  if (t === 'Int32' || t === 'Double') return Number((v as { valueOf(): number }).valueOf());
  if (t === 'Decimal128') return Number.parseFloat(String(v));
  return Number.NaN;
}

function bytesOf(v: unknown): Uint8Array {
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const b = v as { buffer?: Uint8Array; id?: Uint8Array; value?: (asRaw?: boolean) => Uint8Array };
  if (bsonType(v) === 'ObjectId') return (v as ObjectId).id;
  if (b.buffer instanceof Uint8Array) return b.buffer;
  return new Uint8Array();
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function cmp(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Total order over BSON values, as MongoDB sorts and compares them. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 2:
    case 14:
      return 0;
    case 3: {
      const x = toNumber(a);
      const y = toNumber(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return cmp(x, y);
    }
    case 4:
      return cmp(String(a), String(b));
    case 5: {
      const ka = Object.keys(a as Document);
      const kb = Object.keys(b as Document);
      const n = Math.min(ka.length, kb.length);
      for (let i = 0; i < n; i++) {
        const va = (a as Document)[ka[i]];
        const vb = (b as Document)[kb[i]];
        const byType = cmp(typeRank(va), typeRank(vb));
        if (byType) return byType;
        const byName = cmp(ka[i], kb[i]);
        if (byName) return byName;
        const byValue = compareValues(va, vb);
        if (byValue) return byValue;
      }
      return cmp(ka.length, kb.length);
    }
    case 6: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      const n = Math.min(xa.length, xb.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c) return c;
      }
      return cmp(xa.length, xb.length);
    }
    case 7: {
      const ba = bytesOf(a);
      const bb = bytesOf(b);
      if (ba.length !== bb.length) return cmp(ba.length, bb.length);
      const sa = (a as { sub_type?: number }).sub_type ?? 0;
      const sb = (b as { sub_type?: number }).sub_type ?? 0;
      return cmp(sa, sb) || compareBytes(ba, bb);
    }
    case 8:
      return compareBytes(bytesOf(a), bytesOf(b));
    case 9:
      return cmp(Number(a), Number(b));
    case 10:
      return cmp((a as Date).getTime(), (b as Date).getTime());
    case 11: {
      const ta = a as Timestamp;
      const tb = b as Timestamp;
      return cmp(ta.t, tb.t) || cmp(ta.i, tb.i);
    }
    case 12:
      return cmp(String(regexParts(a)), String(regexParts(b)));
  }
  return 0;
}

function regexParts(v: unknown): string {
  if (v instanceof RegExp) return `${v.source}/${v.flags}`;
  const r = v as { pattern: string; options: string };
  return `${r.pattern}/${r.options}`;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b) && compareValues(a, b) === 0;
}

/**
 * A string that is equal for two values exactly when MongoDB considers them equal
 * (numbers of any BSON type by value; documents by field order and value).
 */
export function canonicalKey(v: unknown): string {
  const rank = typeRank(v);
  switch (rank) {
    case 2:
      return 'z';
    case 3: {
      const n = toNumber(v);
      return Number.isNaN(n) ? 'nNaN' : `n${n === 0 ? 0 : n}`;
    }
    case 4:
      return `s${String(v)}`;
    case 8:
      return `o${(v as ObjectId).toHexString()}`;
    case 9:
      return v ? 'bt' : 'bf';
    case 10:
      return `d${(v as Date).getTime()}`;
    case 6:
      return `a[${(v as unknown[]).map(canonicalKey).join(',')}]`;
    case 5:
      return `{${Object.entries(v as Document)
        .map(([k, x]) => `${JSON.stringify(k)}:${canonicalKey(x)}`)
        .join(',')}}`;
    case 7:
      return `x${(v as { sub_type?: number }).sub_type ?? 0}:${Buffer.from(bytesOf(v)).toString('hex')}`;
    case 11:
      return `t${(v as Timestamp).t}:${(v as Timestamp).i}`;
    case 12:
      return `r${regexParts(v)}`;
    default:
      return `k${rank}`;
  }
}

/**
 * Every value a dotted path reaches in a document, descending into arrays the way MongoDB
 * does for queries and index keys (`a.b` over `a: [{b:1},{b:2}]` yields 1 and 2; a numeric
 * segment also indexes into the array). `undefined` when the path reaches nothing.
 */
export function valuesAtPath(doc: unknown, path: string, withArrayElements = false): unknown[] {
  const parts = path.split('.');
  const out: unknown[] = [];
  walk(doc, parts, 0, out);
  if (!withArrayElements) return out;
  const expanded: unknown[] = [];
  for (const v of out) {
    expanded.push(v);
    if (Array.isArray(v)) expanded.push(...v);
  }
  return expanded;
}

function walk(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    const seg = parts[i];
    if (/^\d+$/.test(seg) && Number(seg) < value.length)
      walk(value[Number(seg)], parts, i + 1, out);
    for (const el of value)
      if (isPlainObject(el) || Array.isArray(el)) walkObject(el, parts, i, out);
    return;
  }
  walkObject(value, parts, i, out);
}

function walkObject(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (!isPlainObject(value)) {
    if (i > 0 || value === undefined) out.push(undefined);
    return;
  }
  const next = value[parts[i]];
  if (next === undefined) {
    out.push(undefined);
    return;
  }
  walk(next, parts, i + 1, out);
}

/** The value at a dotted path without descending into arrays (for plain field access). */
export function getPath(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Document)[seg];
  }
  return cur;
}

/** Deep copy of plain objects and arrays; BSON values (immutable in practice) are shared. */
export function cloneDocument<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDocument) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Document = {};
    for (const k of Object.keys(v)) out[k] = cloneDocument((v as Document)[k]);
    return out as T;
  }
  return v;
}

/** How MongoDB names a value's type in error messages. */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'missing';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? 'int' : 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  const t = bsonType(v);
  if (t)
    return (
      {
        ObjectId: 'objectId',
        Long: 'long',
        Decimal128: 'decimal',
        Binary: 'binData',
        Timestamp: 'timestamp',
        BSONRegExp: 'regex',
      }[t] ?? t.toLowerCase()
    );
  return 'object';
}

/** A short rendering of a value for error messages (`ObjectId('…')`, `"text"`, `5`). */
export function renderValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (Array.isArray(v)) return `[ ${v.map(renderValue).join(', ')} ]`;
  const t = bsonType(v);
  if (t === 'ObjectId') return `ObjectId('${(v as ObjectId).toHexString()}')`;
  if (t) return String(v);
  if (isPlainObject(v)) {
    const parts = Object.entries(v).map(([k, x]) => `${k}: ${renderValue(x)}`);
    return parts.length ? `{ ${parts.join(', ')} }` : '{}';
  }
  return String(v);
}

export function newObjectId(): ObjectId {
  return new ObjectId();
}

export function nowTimestamp(): Timestamp {
  return new Timestamp({ t: Math.floor(Date.now() / 1000), i: 1 });
}
