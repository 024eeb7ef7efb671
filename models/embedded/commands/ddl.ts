/** Collections, indexes and databases: create, drop, list, rename, stats. */
import { calculateObjectSize } from 'bson';
import { optionalDocument, targetCollection, type CommandContext, type Handler } from './context';
import type { IndexSpec } from '../types';
import { compileFilter } from '../matcher';
import { indexSpecEquals, validateNamespace } from '../store';
import { ErrorCodes, fail } from '../errors';
import { isPlainObject } from '../values';
import { ID_INDEX } from '../collection';

function requireCollection(ctx: CommandContext, name: string) {
  const coll = ctx.ws.collection(ctx.db, name);
  if (!coll) fail(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  return coll;
}

const create: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'create');
  validateNamespace(ctx.db, name);
  if (ctx.ws.collection(ctx.db, name))
    fail(ErrorCodes.NamespaceExists, `Collection ${ctx.db}.${name} already exists.`);
  const {
    create: _c,
    $db: _d,
    lsid: _l,
    txnNumber: _t,
    autocommit: _a,
    startTransaction: _s,
    $clusterTime: _k,
    writeConcern: _w,
    ...options
  } = cmd;
  ctx.ws.apply({ op: 'createColl', db: ctx.db, coll: name, options });
  return { ok: 1 };
};

const drop: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'drop');
  const coll = ctx.ws.collection(ctx.db, name);
  if (!coll) return { ok: 1 }; // MongoDB 7+: dropping a missing collection succeeds
  const nIndexesWas = coll.indexes.size + 1;
  ctx.ws.apply({ op: 'dropColl', db: ctx.db, coll: name });
  return { ns: coll.ns, nIndexesWas, ok: 1 };
};

const dropDatabase: Handler = (_cmd, ctx) => {
  ctx.ws.apply({ op: 'dropDb', db: ctx.db });
  return { dropped: ctx.db, ok: 1 };
};

function normaliseIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
    fail(
      ErrorCodes.FailedToParse,
      "The 'key' field is a required property of an index specification",
    );
  }
  if (typeof raw.name !== 'string' || !raw.name)
    fail(
      ErrorCodes.FailedToParse,
      "The 'name' field is a required property of an index specification",
    );
  const spec: IndexSpec = { v: 2, key: raw.key as IndexSpec['key'], name: raw.name };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'key' || k === 'name' || k === 'v' || k === 'background' || v === undefined) continue;
    if ((k === 'unique' || k === 'sparse') && !v) continue;
    spec[k] = v;
  }
  if (spec.expireAfterSeconds !== undefined) {
    const ttl = Number(spec.expireAfterSeconds);
    if (!Number.isFinite(ttl) || ttl < 0)
      fail(ErrorCodes.InvalidOptions, 'TTL index expireAfterSeconds must be a non-negative number');
    spec.expireAfterSeconds = ttl;
  }
  return spec;
}

const createIndexes: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes))
    fail(ErrorCodes.TypeMismatch, "BSON field 'createIndexes.indexes' must be an array");
  const existed = ctx.ws.collection(ctx.db, name);
  if (!existed) ctx.ws.apply({ op: 'createColl', db: ctx.db, coll: name, options: {} });
  const coll = ctx.ws.collection(ctx.db, name)!;
  const before = coll.indexes.size + 1;
  for (const raw of cmd.indexes as unknown[]) {
    const spec = normaliseIndexSpec(raw);
    const existing = coll.indexSpecs();
    const sameName = existing.find((s) => s.name === spec.name);
    if (sameName) {
      if (
        indexSpecEquals(sameName, spec) ||
        (spec.name === ID_INDEX.name && JSON.stringify(spec.key) === JSON.stringify(ID_INDEX.key))
      )
        continue;
      fail(
        JSON.stringify(sameName.key) === JSON.stringify(spec.key)
          ? ErrorCodes.IndexOptionsConflict
          : ErrorCodes.IndexKeySpecsConflict,
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
      );
    }
    const sameKey = existing.find(
      (s) => JSON.stringify(s.key) === JSON.stringify(spec.key) && indexSpecEquals(s, spec),
    );
    if (sameKey) continue;
    const sameKeyOtherOptions = existing.find(
      (s) =>
        JSON.stringify(s.key) === JSON.stringify(spec.key) &&
        !s.partialFilterExpression &&
        !spec.partialFilterExpression,
    );
    if (sameKeyOtherOptions) {
      fail(
        ErrorCodes.IndexOptionsConflict,
        `An equivalent index already exists with a different name and options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKeyOtherOptions)}`,
      );
    }
    ctx.ws.apply({ op: 'createIndex', db: ctx.db, coll: name, spec });
  }
  return {
    createdCollectionAutomatically: !existed,
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.size + 1,
    ok: 1,
  };
};

const listIndexes: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'listIndexes');
  const coll = requireCollection(ctx, name);
  return ctx.engine.cursors.open(
    coll.ns,
    coll.indexSpecs().map((s) => ({ ...s })),
    undefined,
  );
};

const dropIndexes: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, Object.keys(cmd)[0]);
  const coll = requireCollection(ctx, name);
  const nIndexesWas = coll.indexes.size + 1;
  const wanted = cmd.index;
  let names: string[];
  if (wanted === '*') names = [...coll.indexes.keys()];
  else if (typeof wanted === 'string') names = [wanted];
  else if (Array.isArray(wanted)) names = wanted.map(String);
  else if (isPlainObject(wanted)) {
    const match = [...coll.indexes.values()].find(
      (i) => JSON.stringify(i.spec.key) === JSON.stringify(wanted),
    );
    if (!match)
      fail(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(wanted)}`);
    names = [match.name];
  } else return fail(ErrorCodes.TypeMismatch, "BSON field 'index' has the wrong type");
  for (const n of names) {
    if (n === ID_INDEX.name) fail(ErrorCodes.InvalidOptions, 'cannot drop _id index');
    if (!coll.indexes.has(n)) fail(ErrorCodes.IndexNotFound, `index not found with name [${n}]`);
  }
  for (const n of names) ctx.ws.apply({ op: 'dropIndex', db: ctx.db, coll: name, name: n });
  return { nIndexesWas, ok: 1 };
};

const listCollections: Handler = (cmd, ctx) => {
  const filter = optionalDocument(cmd.filter, 'filter');
  const predicate = compileFilter(filter);
  const infos = ctx.engine.store
    .collections(ctx.db)
    .map((c) => ctx.ws.collection(ctx.db, c.name))
    .filter((c) => c !== undefined)
    .map((c) =>
      cmd.nameOnly
        ? { name: c.name, type: 'collection' }
        : {
            name: c.name,
            type: 'collection',
            options: c.options,
            info: { readOnly: false },
            idIndex: { ...ID_INDEX },
          },
    )
    .filter((d) => predicate(d));
  return ctx.engine.cursors.open(
    `${ctx.db}.$cmd.listCollections`,
    infos,
    optionalDocument(cmd.cursor, 'cursor')?.batchSize as number | undefined,
  );
};

function splitNs(ns: unknown): { db: string; coll: string } {
  if (typeof ns !== 'string' || !ns.includes('.'))
    fail(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${String(ns)}'`);
  const dot = ns.indexOf('.');
  return { db: ns.slice(0, dot), coll: ns.slice(dot + 1) };
}

const renameCollection: Handler = (cmd, ctx) => {
  const from = splitNs(cmd.renameCollection);
  const to = splitNs(cmd.to);
  validateNamespace(to.db, to.coll);
  if (!ctx.ws.collection(from.db, from.coll))
    fail(ErrorCodes.NamespaceNotFound, 'Source collection does not exist');
  if (ctx.ws.collection(to.db, to.coll)) {
    if (!cmd.dropTarget) fail(ErrorCodes.NamespaceExists, 'target namespace exists');
  }
  ctx.ws.apply({ op: 'renameColl', db: from.db, coll: from.coll, toDb: to.db, toColl: to.coll });
  return { ok: 1 };
};

function collectionSizes(ctx: CommandContext, db: string) {
  return ctx.engine.store.collections(db).map((c) => {
    let size = 0;
    for (const d of c.docs.values()) size += calculateObjectSize(d);
    return { coll: c, size };
  });
}

const listDatabases: Handler = (cmd, ctx) => {
  const databases = [...ctx.engine.store.dbs.keys()].map((name) => {
    const sizeOnDisk = collectionSizes(ctx, name).reduce((a, c) => a + c.size, 0);
    return cmd.nameOnly ? { name } : { name, sizeOnDisk, empty: sizeOnDisk === 0 };
  });
  const totalSize = databases.reduce(
    (a, d) => a + ((d as { sizeOnDisk?: number }).sizeOnDisk ?? 0),
    0,
  );
  return cmd.nameOnly
    ? { databases, ok: 1 }
    : { databases, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
};

const dbStats: Handler = (_cmd, ctx) => {
  const sizes = collectionSizes(ctx, ctx.db);
  const objects = sizes.reduce((a, c) => a + c.coll.docs.size, 0);
  const dataSize = sizes.reduce((a, c) => a + c.size, 0);
  const indexes = sizes.reduce((a, c) => a + c.coll.indexes.size + 1, 0);
  return {
    db: ctx.db,
    collections: sizes.length,
    views: 0,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize,
    storageSize: dataSize,
    indexes,
    indexSize: 0,
    totalSize: dataSize,
    scaleFactor: 1,
    ok: 1,
  };
};

const collStats: Handler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'collStats');
  const coll = requireCollection(ctx, name);
  let size = 0;
  for (const d of coll.docs.values()) size += calculateObjectSize(d);
  const count = coll.docs.size;
  const indexSizes = Object.fromEntries(coll.indexSpecs().map((s) => [s.name, 0]));
  return {
    ns: coll.ns,
    count,
    size,
    avgObjSize: count ? Math.floor(size / count) : 0,
    storageSize: size,
    nindexes: coll.indexes.size + 1,
    totalIndexSize: 0,
    indexSizes,
    ok: 1,
  };
};

export const ddlCommands: Record<string, Handler> = {
  create,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  listCollections,
  renameCollection,
  listDatabases,
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
};
