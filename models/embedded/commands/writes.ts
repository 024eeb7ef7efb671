/** insert, update, delete, findAndModify and MongoDB 8's bulkWrite. */
import type { Document } from 'bson';
import type { Workspace } from '../store';
import { journalPutBytes } from '../persistence/codec';
import { documentBytes } from '../wire';
import { optionalDocument, targetCollection, type Handler } from './context';
import { compileFilter } from '../matcher';
import {
  applyUpdate,
  sortDocuments,
  upsertSeed,
  validateUpdate,
  type UpdateSpec,
} from '../updates';
import { asServerFailure, ErrorCodes, fail, MongoServerFailure } from '../errors';
import {
  canonicalKey as keyOf,
  isPlainObject,
  newObjectId,
  renderValue as render,
} from '../values';

/** The name of an object's first own key (without listing them all). */
function firstKey(doc: Document): string | undefined {
  for (const key in doc) return key;
  return undefined;
}

/**
 * `_id` first, generated when missing, never an array or regex. A document that already starts
 * with its `_id` (what drivers send) is taken as it is.
 */
function withId(doc: Document): Document {
  if (!isPlainObject(doc)) fail(ErrorCodes.TypeMismatch, 'document must be an object');
  const id = doc._id === undefined ? newObjectId() : doc._id;
  if (Array.isArray(id)) fail(ErrorCodes.BadValue, "can't use an array for _id");
  // MongoDB refuses them in _id (elsewhere 5.0+ stores them).
  if (isPlainObject(id))
    for (const key of Object.keys(id))
      if (key.startsWith('$'))
        fail(
          ErrorCodes.DollarPrefixedFieldName,
          `_id fields may not contain '$'-prefixed fields: ${key} is not valid for storage.`,
        );
  if (doc._id !== undefined && firstKey(doc) === '_id') return doc;
  const { _id: _ignored, ...rest } = doc;
  return { _id: id, ...rest };
}

/**
 * Inserts `given`. `bytes`: its BSON as received (an insert's document sequence), which the
 * journal copies instead of encoding the document again when it carried its own `_id`.
 */
export function insertOne(
  ws: Workspace,
  db: string,
  coll: string,
  given: Document,
  bytes?: Uint8Array,
): Document {
  const doc = withId(given);
  // A put replaces; inserting an existing _id must be a duplicate-key error instead.
  if (ws.collection(db, coll)?.get(keyOf(doc._id))) {
    fail(
      ErrorCodes.DuplicateKey,
      `E11000 duplicate key error collection: ${db}.${coll} index: _id_ dup key: { _id: ${render(doc._id)} }`,
      {
        keyPattern: { _id: 1 },
        keyValue: { _id: doc._id },
      },
    );
  }
  const put = { op: 'put' as const, db, coll, doc };
  // The bytes hold the same fields when only `_id` moved first (not when it was generated).
  if (bytes && given._id !== undefined) journalPutBytes(put, bytes);
  ws.apply(put);
  return doc;
}

export interface UpdateStatement {
  q: Document;
  u: UpdateSpec;
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Document[];
  sort?: Document;
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  /** The document before and after the (first) change, for findAndModify. */
  before?: Document;
  after?: Document;
}

export function updateDocuments(
  ws: Workspace,
  db: string,
  coll: string,
  st: UpdateStatement,
): UpdateOutcome {
  const filter = optionalDocument(st.q, 'q') ?? {};
  const u = validateUpdate(st.u);
  const collection = ws.collection(db, coll);
  let matches = collection ? collection.find(filter, compileFilter(filter)) : [];
  if (st.sort && Object.keys(st.sort).length) matches = sortDocuments(matches, st.sort);
  if (!st.multi) matches = matches.slice(0, 1);
  if (matches.length === 0) {
    if (!st.upsert) return { matched: 0, modified: 0 };
    const seed = upsertSeed(filter);
    const { doc } = applyUpdate(seed, u, { inserting: true, arrayFilters: st.arrayFilters });
    const inserted = insertOne(
      ws,
      db,
      coll,
      doc._id === undefined && seed._id !== undefined ? { _id: seed._id, ...doc } : doc,
    );
    return { matched: 0, modified: 0, upsertedId: inserted._id, after: inserted };
  }
  let modified = 0;
  let first: { before: Document; after: Document } | undefined;
  for (const current of matches) {
    const { doc, changed } = applyUpdate(current, u, { arrayFilters: st.arrayFilters, filter });
    if (changed) {
      ws.apply({ op: 'put', db, coll, doc });
      modified++;
    }
    first ??= { before: current, after: doc };
  }
  return { matched: matches.length, modified, before: first?.before, after: first?.after };
}

export function deleteDocuments(
  ws: Workspace,
  db: string,
  coll: string,
  q: Document,
  limit: number,
  sort?: Document,
): Document[] {
  const collection = ws.collection(db, coll);
  if (!collection) return [];
  let matches = collection.find(q, compileFilter(q));
  if (sort && Object.keys(sort).length) matches = sortDocuments(matches, sort);
  if (limit === 1) matches = matches.slice(0, 1);
  for (const doc of matches) ws.apply({ op: 'del', db, coll, id: doc._id });
  return matches;
}

function writeError(index: number, err: unknown): Document {
  const f = asServerFailure(err);
  return { index, code: f.code, codeName: f.codeName, errmsg: f.message, ...f.extra };
}

/** Runs statements in order; an ordered batch stops at the first error. */
function runBatch<T>(
  items: T[],
  ordered: boolean,
  run: (item: T, index: number) => void,
): Document[] {
  const errors: Document[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      run(items[i], i);
    } catch (err) {
      if (err instanceof MongoServerFailure && err.code === ErrorCodes.WriteConflict) throw err;
      errors.push(writeError(i, err));
      if (ordered) break;
    }
  }
  return errors;
}

function list(cmd: Document, field: string): Document[] {
  const v = cmd[field];
  if (!Array.isArray(v))
    fail(ErrorCodes.FailedToParse, `BSON field '${field}' is missing but a required field`);
  return v as Document[];
}

const insert: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'insert');
  const docs = list(cmd, 'documents');
  const bytes = documentBytes(docs);
  let n = 0;
  const errors = runBatch(docs, cmd.ordered !== false, (doc, index) => {
    insertOne(ctx.ws, ctx.db, coll, doc, bytes?.[index]);
    n++;
  });
  return { n, ...(errors.length ? { writeErrors: errors } : {}), ok: 1 };
};

const update: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'update');
  const statements = list(cmd, 'updates');
  // `sort` in an update statement came with MongoDB 8.0; 7.0 refuses the whole command.
  if (statements.some((st) => (st as Document).sort !== undefined))
    fail(ErrorCodes.Location40415, "BSON field 'update.updates.sort' is an unknown field.");
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = runBatch(statements, cmd.ordered !== false, (st, index) => {
    const out = updateDocuments(ctx.ws, ctx.db, coll, st as unknown as UpdateStatement);
    n += out.matched + (out.upsertedId !== undefined ? 1 : 0);
    nModified += out.modified;
    if (out.upsertedId !== undefined) upserted.push({ index, _id: out.upsertedId });
  });
  return {
    n,
    nModified,
    ...(upserted.length ? { upserted } : {}),
    ...(errors.length ? { writeErrors: errors } : {}),
    ok: 1,
  };
};

const remove: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'delete');
  const statements = list(cmd, 'deletes');
  let n = 0;
  const errors = runBatch(statements, cmd.ordered !== false, (st) => {
    const q = optionalDocument(st.q, 'q') ?? {};
    n += deleteDocuments(ctx.ws, ctx.db, coll, q, Number(st.limit ?? 0)).length;
  });
  return { n, ...(errors.length ? { writeErrors: errors } : {}), ok: 1 };
};

const findAndModify: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, Object.keys(cmd)[0]);
  const query = optionalDocument(cmd.query, 'query') ?? {};
  const sort = optionalDocument(cmd.sort, 'sort');
  const fields = optionalDocument(cmd.fields, 'fields');
  const project = (doc: Document | undefined) =>
    (doc && fields ? ctx.engine.project([doc], fields)[0] : doc) ?? null;
  if (cmd.remove) {
    if (cmd.update !== undefined)
      fail(ErrorCodes.FailedToParse, 'Cannot specify both an update and remove=true');
    const [gone] = deleteDocuments(ctx.ws, ctx.db, coll, query, 1, sort);
    return { lastErrorObject: { n: gone ? 1 : 0 }, value: project(gone), ok: 1 };
  }
  if (cmd.update === undefined)
    fail(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
  const out = updateDocuments(ctx.ws, ctx.db, coll, {
    q: query,
    u: cmd.update as UpdateSpec,
    upsert: Boolean(cmd.upsert),
    arrayFilters: cmd.arrayFilters as Document[] | undefined,
    sort,
  });
  const lastErrorObject: Document = {
    n: out.matched || (out.upsertedId !== undefined ? 1 : 0),
    updatedExisting: out.matched > 0,
  };
  if (out.upsertedId !== undefined) lastErrorObject.upserted = out.upsertedId;
  const value = cmd.new ? out.after : out.upsertedId !== undefined ? undefined : out.before;
  return { lastErrorObject, value: project(value), ok: 1 };
};

/** MongoDB 8's cross-collection bulkWrite (used by mongoose's connection.bulkWrite). */
const bulkWrite: Handler = (cmd, ctx) => {
  const ops = list(cmd, 'ops');
  const nsInfo = list(cmd, 'nsInfo');
  const results: Document[] = [];
  const counts = { nInserted: 0, nMatched: 0, nModified: 0, nUpserted: 0, nDeleted: 0 };
  const target = (i: unknown) => {
    const ns = nsInfo[Number(i)]?.ns;
    if (typeof ns !== 'string')
      fail(
        ErrorCodes.BadValue,
        `BulkWrite ops entry refers to a nonexistent nsInfo entry ${String(i)}`,
      );
    const dot = ns.indexOf('.');
    return { db: ns.slice(0, dot), coll: ns.slice(dot + 1) };
  };
  const errors = runBatch(ops, cmd.ordered !== false, (op, idx) => {
    if ('insert' in op) {
      const { db, coll } = target(op.insert);
      insertOne(ctx.ws, db, coll, op.document as Document);
      counts.nInserted++;
      results.push({ ok: 1, idx, n: 1 });
    } else if ('update' in op) {
      const { db, coll } = target(op.update);
      const out = updateDocuments(ctx.ws, db, coll, {
        q: op.filter as Document,
        u: op.updateMods as UpdateSpec,
        multi: Boolean(op.multi),
        upsert: Boolean(op.upsert),
        arrayFilters: op.arrayFilters as Document[] | undefined,
      });
      counts.nMatched += out.matched;
      counts.nModified += out.modified;
      const r: Document = {
        ok: 1,
        idx,
        n: out.matched + (out.upsertedId !== undefined ? 1 : 0),
        nModified: out.modified,
      };
      if (out.upsertedId !== undefined) {
        counts.nUpserted++;
        r.upserted = { _id: out.upsertedId };
      }
      results.push(r);
    } else if ('delete' in op) {
      const { db, coll } = target(op.delete);
      const n = deleteDocuments(
        ctx.ws,
        db,
        coll,
        (op.filter as Document) ?? {},
        op.multi ? 0 : 1,
      ).length;
      counts.nDeleted += n;
      results.push({ ok: 1, idx, n });
    } else fail(ErrorCodes.FailedToParse, 'Unrecognized bulkWrite operation');
  });
  for (const e of errors)
    results.push({
      ok: 0,
      idx: e.index,
      code: e.code,
      codeName: e.codeName,
      errmsg: e.errmsg,
      ...(e.keyPattern ? { keyPattern: e.keyPattern, keyValue: e.keyValue } : {}),
    });
  results.sort((a, b) => Number(a.idx) - Number(b.idx));
  return {
    cursor: {
      id: ctx.engine.cursorZero(),
      firstBatch: cmd.errorsOnly ? results.filter((r) => r.ok === 0) : results,
      ns: 'admin.$cmd.bulkWrite',
    },
    nErrors: errors.length,
    ...counts,
    ok: 1,
  };
};

export const writeCommands: Record<string, Handler> = {
  insert,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
  bulkWrite,
};
