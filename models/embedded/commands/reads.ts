/** find, getMore, killCursors, count, distinct, aggregate. */
import { Long, type Document } from 'bson';
import { optionalDocument, targetCollection, type CommandContext, type Handler } from './context';
import { compileFilter, runPipeline } from '../matcher';
import { sortDocuments } from '../updates';
import { canonicalKey, cloneDocument, valuesAtPath } from '../values';
import { ErrorCodes, fail } from '../errors';

function numberOption(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : Long.isLong(v) ? (v as Long).toNumber() : Number.NaN;
  if (!Number.isFinite(n))
    fail(
      ErrorCodes.TypeMismatch,
      `BSON field '${name}' is the wrong type '${typeof v}', expected a number`,
    );
  return n;
}

/** Matching documents, sorted, skipped and limited, but not yet projected. */
export function selectDocuments(
  ctx: CommandContext,
  coll: string,
  filter: Document | undefined,
  opts: { sort?: Document; skip?: number; limit?: number },
): Document[] {
  const collection = ctx.ws.collection(ctx.db, coll);
  if (!collection) return [];
  let docs = collection.find(filter, compileFilter(filter));
  if (opts.sort && Object.keys(opts.sort).length) docs = sortDocuments(docs, opts.sort);
  const skip = opts.skip ?? 0;
  if (skip < 0) fail(ErrorCodes.BadValue, 'skip value must be non-negative');
  const limit = opts.limit ? Math.abs(opts.limit) : 0;
  if (skip || limit) docs = docs.slice(skip, limit ? skip + limit : undefined);
  return docs;
}

const find: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'find');
  const filter = optionalDocument(cmd.filter, 'filter');
  const projection = optionalDocument(cmd.projection, 'projection');
  const limit = numberOption(cmd.limit, 'limit');
  let docs = selectDocuments(ctx, coll, filter, {
    sort: optionalDocument(cmd.sort, 'sort'),
    skip: numberOption(cmd.skip, 'skip'),
    limit,
  });
  if (projection && Object.keys(projection).length) docs = ctx.engine.project(docs, projection);
  const singleBatch = Boolean(cmd.singleBatch) || (limit !== undefined && limit < 0);
  return ctx.engine.cursors.open(
    `${ctx.db}.${coll}`,
    docs,
    numberOption(cmd.batchSize, 'batchSize'),
    singleBatch,
  );
};

const getMore: Handler = (cmd, ctx) => {
  const id = Long.isLong(cmd.getMore) ? (cmd.getMore as Long).toNumber() : Number(cmd.getMore);
  const coll = targetCollection(cmd, 'collection');
  return ctx.engine.cursors.getMore(
    id,
    `${ctx.db}.${coll}`,
    numberOption(cmd.batchSize, 'batchSize'),
  );
};

const killCursors: Handler = (cmd, ctx) => {
  const ids = ((cmd.cursors as unknown[]) ?? []).map((c) =>
    Long.isLong(c) ? (c as Long).toNumber() : Number(c),
  );
  return ctx.engine.cursors.kill(ids);
};

const count: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'count');
  const query = optionalDocument(cmd.query, 'query');
  const collection = ctx.ws.collection(ctx.db, coll);
  if (!query || Object.keys(query).length === 0) {
    const total = collection?.docs.size ?? 0;
    const skip = numberOption(cmd.skip, 'skip') ?? 0;
    const limit = Math.abs(numberOption(cmd.limit, 'limit') ?? 0);
    const n = Math.max(0, total - skip);
    return { n: limit ? Math.min(limit, n) : n, ok: 1 };
  }
  const docs = selectDocuments(ctx, coll, query, {
    skip: numberOption(cmd.skip, 'skip'),
    limit: numberOption(cmd.limit, 'limit'),
  });
  return { n: docs.length, ok: 1 };
};

const distinct: Handler = (cmd, ctx) => {
  const coll = targetCollection(cmd, 'distinct');
  if (typeof cmd.key !== 'string')
    fail(ErrorCodes.TypeMismatch, "BSON field 'distinct.key' is missing or not a string");
  const docs = selectDocuments(ctx, coll, optionalDocument(cmd.query, 'query'), {});
  const seen = new Map<string, unknown>();
  for (const doc of docs) {
    for (const v of valuesAtPath(doc, cmd.key as string)) {
      for (const x of Array.isArray(v) ? v : [v])
        if (x !== undefined && !seen.has(canonicalKey(x))) seen.set(canonicalKey(x), x);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

/** Stages whose mingo implementation never changes the documents it is given. */
const READ_ONLY_STAGES = new Set([
  '$match',
  '$group',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$project',
  '$sortByCount',
]);

function readsInputOnly(stage: Document): boolean {
  const ops = Object.keys(stage);
  return ops.length === 1 && READ_ONLY_STAGES.has(ops[0]);
}

const aggregate: Handler = (cmd, ctx) => {
  if (!Array.isArray(cmd.pipeline))
    fail(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  if (cmd.cursor === undefined && !cmd.explain)
    fail(
      ErrorCodes.FailedToParse,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  const pipeline = [...(cmd.pipeline as Document[])];
  const target = cmd.aggregate;
  let input: Document[] = [];
  if (typeof target === 'string') {
    // A leading $match uses the indexes; the rest runs in mingo on copies of the matches.
    const first = pipeline[0];
    const filter =
      first && first.$match && typeof first.$match === 'object'
        ? (pipeline.shift()!.$match as Document)
        : undefined;
    const matches = selectDocuments(ctx, target, filter, {});
    // Stored documents are never changed: stages that only read their input (what counts,
    // groups and most listings use) take them as they are, the others work on copies.
    input = pipeline.every(readsInputOnly) ? matches : matches.map(cloneDocument);
  } else if (target !== 1) {
    fail(ErrorCodes.InvalidNamespace, 'aggregate target must be a collection name or 1');
  }
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0];
    if (op === '$out' || op === '$merge')
      fail(ErrorCodes.IllegalOperation, `${op} is not supported by the embedded engine`);
  }
  const resolve = (name: string) => [...(ctx.ws.collection(ctx.db, name)?.docs.values() ?? [])];
  const docs = pipeline.length ? runPipeline(input, pipeline, resolve) : input;
  const batchSize = numberOption((cmd.cursor as Document | undefined)?.batchSize, 'batchSize');
  return ctx.engine.cursors.open(
    `${ctx.db}.${typeof target === 'string' ? target : '$cmd.aggregate'}`,
    docs,
    batchSize,
  );
};

export const readCommands: Record<string, Handler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
  aggregate,
};
