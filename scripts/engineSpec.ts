/**
 * A small runner of MongoDB's unified test format (mongodb/specifications,
 * source/unified-test-format) against the embedded engine, over the wire with the `mongodb`
 * driver: the CRUD and transactions suites are the fair judge of the engine's claim to MongoDB's
 * semantics (docs/engine.md). The specification files are not part of this repository (their
 * licence does not allow it): point the runner at a checkout.
 *
 *   npx tsx scripts/engine-spec.ts <specifications checkout> [file filter]
 *
 * prints one line per failure and `N passed, N failed, N skipped`; exits 1 when a failure is not
 * in the documented skip list (docs/engine.md, "Specification tests").
 *
 * What it interprets: entities (client, database, collection, session), initialData, the CRUD
 * operations, sessions and transactions, expectResult (with $$exists, $$type, $$unsetOrMatches,
 * $$lte, $$matchAsRoot), expectError, outcome. What it does not: expectEvents (command monitoring
 * is not checked), fail points, mongos pinning — a test needing those is skipped with that reason.
 */
import { EJSON } from 'bson';
import fs from 'node:fs';
import path from 'node:path';
import {
  type ClientSession,
  type Collection,
  type Db,
  type Document,
  MongoClient,
  MongoServerError,
} from 'mongodb';

type Doc = Record<string, unknown>;

export interface SpecOutcome {
  file: string;
  test: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
}

class Skip extends Error {}

const SERVER_VERSION = [7, 0, 0];

/** The engine's version against `other`: >0 newer, 0 same, <0 older (missing parts count 0). */
function compareVersion(other: string): number {
  const parts = other.split('.').map(Number);
  for (let i = 0; i < 3; i++)
    if (SERVER_VERSION[i] !== (parts[i] ?? 0)) return SERVER_VERSION[i] - (parts[i] ?? 0);
  return 0;
}
const versionAtLeast = (min: string) => compareVersion(min) >= 0;

/** One requirement set: the engine is a 7.0 single-member replica set. */
function meets(requirements: Doc[] | undefined): string | undefined {
  if (!requirements?.length) return undefined;
  for (const r of requirements) {
    const known = ['minServerVersion', 'maxServerVersion', 'topologies', 'serverless', 'auth'];
    if (Object.keys(r).some((k) => !known.includes(k))) continue;
    if (r.minServerVersion && !versionAtLeast(String(r.minServerVersion))) continue;
    if (r.maxServerVersion && compareVersion(String(r.maxServerVersion)) > 0) continue;
    if (Array.isArray(r.topologies) && !r.topologies.includes('replicaset')) continue;
    if (r.serverless === 'require' || r.auth === true) continue;
    return undefined;
  }
  return `runOnRequirements not met by a 7.0 replica set: ${JSON.stringify(requirements)}`;
}

function isNumber(v: unknown): boolean {
  return (
    typeof v === 'number' ||
    (typeof v === 'object' &&
      v !== null &&
      '_bsontype' in v &&
      ['Int32', 'Long', 'Double', 'Decimal128'].includes(
        String((v as { _bsontype: string })._bsontype),
      ))
  );
}
const num = (v: unknown) =>
  Number(typeof v === 'object' && v !== null && 'toString' in v ? v.toString() : v);

const TYPE_OF: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  int: (v) => isNumber(v),
  long: (v) => isNumber(v),
  double: (v) => isNumber(v),
  number: (v) => isNumber(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
  bool: (v) => typeof v === 'boolean',
  objectId: (v) => (v as { _bsontype?: string })?._bsontype === 'ObjectId',
  date: (v) => v instanceof Date,
  null: (v) => v === null,
};

/** Unified-format matching: extra fields allowed in root-level documents only. */
export function match(
  expected: unknown,
  actual: unknown,
  root: boolean,
  at = '$',
): string | undefined {
  if (expected && typeof expected === 'object' && !Array.isArray(expected) && !isNumber(expected)) {
    const e = expected as Doc;
    const keys = Object.keys(e);
    if (keys.length === 1 && keys[0].startsWith('$$')) {
      const op = keys[0];
      const arg = e[op];
      if (op === '$$exists')
        return (actual !== undefined) === arg ? undefined : `${at}: exists ${String(arg)}`;
      if (op === '$$unsetOrMatches')
        return actual === undefined ? undefined : match(arg, actual, root, at);
      if (op === '$$type') {
        const types = Array.isArray(arg) ? arg : [arg];
        return types.some((t) => TYPE_OF[String(t)]?.(actual))
          ? undefined
          : `${at}: not of type ${String(arg)}`;
      }
      if (op === '$$lte')
        return num(actual) <= num(arg) ? undefined : `${at}: ${String(actual)} > ${String(arg)}`;
      if (op === '$$matchAsRoot') return match(arg, actual, true, at);
      throw new Skip(`matching operator ${op}`);
    }
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return `${at}: expected a document, got ${EJSON.stringify(actual as Document)}`;
    const a = actual as Doc;
    for (const key of keys) {
      const problem = match(e[key], a[key], false, `${at}.${key}`);
      if (problem) return problem;
    }
    if (!root)
      for (const key of Object.keys(a)) if (!(key in e)) return `${at}: unexpected field ${key}`;
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return `${at}: expected ${EJSON.stringify(expected as Document)}, got ${EJSON.stringify(actual as Document)}`;
    // The documents of a root-level array (a find's result) are root-level documents.
    for (let i = 0; i < expected.length; i++) {
      const problem = match(expected[i], actual[i], root, `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isNumber(expected))
    return isNumber(actual) && num(expected) === num(actual)
      ? undefined
      : `${at}: expected ${num(expected)}, got ${String(actual)}`;
  const same =
    EJSON.stringify({ v: expected } as Document) === EJSON.stringify({ v: actual } as Document);
  return same
    ? undefined
    : `${at}: expected ${EJSON.stringify({ v: expected } as Document)}, got ${EJSON.stringify({ v: actual } as Document)}`;
}

/** The driver's transaction states, by the unified format's names. */
const TRANSACTION_STATES: Record<string, string> = {
  NO_TRANSACTION: 'none',
  STARTING_TRANSACTION: 'starting',
  TRANSACTION_IN_PROGRESS: 'in_progress',
  TRANSACTION_COMMITTED: 'committed',
  TRANSACTION_COMMITTED_EMPTY: 'committed',
  TRANSACTION_ABORTED: 'aborted',
};

interface Entities {
  clients: Map<string, MongoClient>;
  dbs: Map<string, Db>;
  collections: Map<string, Collection>;
  sessions: Map<string, ClientSession>;
  results: Map<string, unknown>;
}

const sessionOf = (entities: Entities, args: Doc) =>
  args.session ? entities.sessions.get(String(args.session)) : undefined;

function options(entities: Entities, args: Doc, drop: string[]): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(args)) if (!drop.includes(k) && k !== 'session') out[k] = v;
  const session = sessionOf(entities, args);
  if (session) out.session = session;
  if (out.returnDocument) out.returnDocument = String(out.returnDocument).toLowerCase();
  return out;
}

function bulkResult(r: Doc): Doc {
  return {
    insertedCount: r.insertedCount,
    matchedCount: r.matchedCount,
    modifiedCount: r.modifiedCount,
    deletedCount: r.deletedCount,
    upsertedCount: r.upsertedCount,
    upsertedIds: r.upsertedIds,
    insertedIds: r.insertedIds,
  };
}

async function runOperation(entities: Entities, op: Doc): Promise<unknown> {
  const name = String(op.name);
  const args = (op.arguments ?? {}) as Doc;
  const object = String(op.object);
  if (object === 'testRunner') {
    if (name === 'assertSessionTransactionState') {
      const session = entities.sessions.get(String(args.session))!;
      const raw = (session as unknown as { transaction: { state: string } }).transaction.state;
      const state = TRANSACTION_STATES[raw] ?? raw;
      if (state !== args.state)
        throw new Error(`session state: expected ${String(args.state)}, is ${state}`);
      return undefined;
    }
    if (name === 'assertCollectionExists' || name === 'assertCollectionNotExists') {
      const db = [...entities.clients.values()][0].db(String(args.databaseName));
      const found =
        (await db.listCollections({ name: String(args.collectionName) }).toArray()).length > 0;
      if (found !== (name === 'assertCollectionExists')) throw new Error(`${name} failed`);
      return undefined;
    }
    throw new Skip(`testRunner.${name}`);
  }
  const session = entities.sessions.get(object);
  if (session) {
    if (name === 'startTransaction') return session.startTransaction(args as never);
    if (name === 'commitTransaction') return session.commitTransaction();
    if (name === 'abortTransaction') return session.abortTransaction();
    if (name === 'endSession') return session.endSession();
    if (name === 'withTransaction')
      return session.withTransaction(async () => {
        for (const inner of args.callback as Doc[]) await check(entities, inner);
      });
    throw new Skip(`session.${name}`);
  }
  const db = entities.dbs.get(object);
  if (db) {
    const o = options(entities, args, ['command', 'commandName', 'collection', 'pipeline']);
    if (name === 'runCommand') return db.command(args.command as Document, o);
    if (name === 'createCollection')
      return db.createCollection(String(args.collection), o).then(() => undefined);
    if (name === 'dropCollection')
      return db.dropCollection(String(args.collection), o).then(() => undefined);
    if (name === 'aggregate') return db.aggregate(args.pipeline as Document[], o).toArray();
    if (name === 'listCollections') return db.listCollections(args.filter as Document, o).toArray();
    throw new Skip(`database.${name}`);
  }
  const c = entities.collections.get(object);
  if (!c) throw new Skip(`object ${object}`);
  const f = (args.filter ?? {}) as Document;
  switch (name) {
    case 'insertOne':
      return c.insertOne(args.document as Document, options(entities, args, ['document']));
    case 'insertMany': {
      const r = await c.insertMany(
        args.documents as Document[],
        options(entities, args, ['documents']),
      );
      return { insertedIds: r.insertedIds, insertedCount: r.insertedCount };
    }
    case 'deleteOne':
      return c.deleteOne(f, options(entities, args, ['filter']));
    case 'deleteMany':
      return c.deleteMany(f, options(entities, args, ['filter']));
    case 'updateOne':
      return c.updateOne(f, args.update as Document, options(entities, args, ['filter', 'update']));
    case 'updateMany':
      return c.updateMany(
        f,
        args.update as Document,
        options(entities, args, ['filter', 'update']),
      );
    case 'replaceOne':
      return c.replaceOne(
        f,
        args.replacement as Document,
        options(entities, args, ['filter', 'replacement']),
      );
    case 'find':
      return c.find(f, options(entities, args, ['filter'])).toArray();
    case 'findOne':
      return c.findOne(f, options(entities, args, ['filter']));
    case 'findOneAndUpdate':
      return c.findOneAndUpdate(f, args.update as Document, {
        ...options(entities, args, ['filter', 'update']),
        includeResultMetadata: false,
      });
    case 'findOneAndReplace':
      return c.findOneAndReplace(f, args.replacement as Document, {
        ...options(entities, args, ['filter', 'replacement']),
        includeResultMetadata: false,
      });
    case 'findOneAndDelete':
      return c.findOneAndDelete(f, {
        ...options(entities, args, ['filter']),
        includeResultMetadata: false,
      });
    case 'countDocuments':
      return c.countDocuments(f, options(entities, args, ['filter']));
    case 'estimatedDocumentCount':
      return c.estimatedDocumentCount(options(entities, args, []));
    case 'distinct':
      return c.distinct(
        String(args.fieldName),
        f,
        options(entities, args, ['fieldName', 'filter']),
      );
    case 'aggregate':
      return c
        .aggregate(args.pipeline as Document[], options(entities, args, ['pipeline']))
        .toArray();
    case 'bulkWrite': {
      const r = await c.bulkWrite(args.requests as never, options(entities, args, ['requests']));
      return bulkResult(r as unknown as Doc);
    }
    case 'createIndex':
      return c.createIndex(args.keys as Document, options(entities, args, ['keys']));
    case 'dropIndex':
      return c.dropIndex(String(args.name), options(entities, args, ['name']));
    case 'listIndexes':
      return c.listIndexes(options(entities, args, [])).toArray();
    default:
      throw new Skip(`collection.${name}`);
  }
}

/** Runs one operation and checks expectResult / expectError. */
async function check(entities: Entities, op: Doc): Promise<void> {
  let result: unknown;
  let error: unknown;
  try {
    result = await runOperation(entities, op);
  } catch (e) {
    if (e instanceof Skip) throw e;
    error = e;
  }
  const expectError = op.expectError as Doc | undefined;
  if (expectError) {
    if (!error)
      throw new Error(
        `${String(op.name)}: expected an error, got ${EJSON.stringify({ r: result } as Document)}`,
      );
    const err = error as MongoServerError;
    if (expectError.isClientError && err instanceof MongoServerError)
      throw new Error(
        `${String(op.name)}: expected a client error, got server error ${err.message}`,
      );
    if (
      expectError.errorContains &&
      !err.message.toLowerCase().includes(String(expectError.errorContains).toLowerCase())
    )
      throw new Error(
        `${String(op.name)}: error "${err.message}" lacks "${String(expectError.errorContains)}"`,
      );
    if (expectError.errorCode !== undefined && err.code !== expectError.errorCode)
      throw new Error(
        `${String(op.name)}: error code ${String(err.code)}, expected ${String(expectError.errorCode)} (${err.message})`,
      );
    if (expectError.errorCodeName && err.codeName !== expectError.errorCodeName)
      throw new Error(
        `${String(op.name)}: error ${String(err.codeName)}, expected ${String(expectError.errorCodeName)}`,
      );
    for (const label of (expectError.errorLabelsContain as string[]) ?? [])
      if (!err.hasErrorLabel?.(label))
        throw new Error(`${String(op.name)}: error lacks label ${label}`);
    for (const label of (expectError.errorLabelsOmit as string[]) ?? [])
      if (err.hasErrorLabel?.(label))
        throw new Error(`${String(op.name)}: error has label ${label}`);
    return;
  }
  if (error) throw new Error(`${String(op.name)}: ${(error as Error).message}`);
  if ('expectResult' in op) {
    const actual =
      result === undefined
        ? undefined
        : (
            EJSON.parse(EJSON.stringify({ r: result } as Document, { relaxed: false }), {
              relaxed: false,
            }) as Doc
          ).r;
    const problem = match(op.expectResult, actual, true);
    if (problem) throw new Error(`${String(op.name)}: ${problem}`);
  }
  if (op.saveResultAsEntity) entities.results.set(String(op.saveResultAsEntity), result);
}

async function setUp(uri: string, spec: Doc, entities: Entities): Promise<void> {
  for (const entity of (spec.createEntities as Doc[]) ?? []) {
    const [kind, def] = Object.entries(entity)[0] as [string, Doc];
    const id = String(def.id);
    if (kind === 'client') {
      const client = new MongoClient(uri, { ...((def.uriOptions as Doc) ?? {}) });
      await client.connect();
      entities.clients.set(id, client);
    } else if (kind === 'database') {
      entities.dbs.set(
        id,
        entities.clients
          .get(String(def.client))!
          .db(String(def.databaseName), def.databaseOptions as never),
      );
    } else if (kind === 'collection') {
      entities.collections.set(
        id,
        entities.dbs
          .get(String(def.database))!
          .collection(String(def.collectionName), def.collectionOptions as never),
      );
    } else if (kind === 'session') {
      entities.sessions.set(
        id,
        entities.clients.get(String(def.client))!.startSession(def.sessionOptions as never),
      );
    } else throw new Skip(`entity ${kind}`);
  }
}

async function loadData(client: MongoClient, data: Doc[] | undefined): Promise<void> {
  for (const set of data ?? []) {
    const db = client.db(String(set.databaseName));
    await db.dropCollection(String(set.collectionName)).catch(() => undefined);
    await db.createCollection(String(set.collectionName)).catch(() => undefined);
    const docs = set.documents as Document[];
    if (docs.length) await db.collection(String(set.collectionName)).insertMany(docs);
  }
}

/** Runs every test of one unified-format file against the engine at `uri`. */
export async function runSpecFile(file: string, uri: string): Promise<SpecOutcome[]> {
  // Relaxed: plain numbers stay numbers, as the driver expects its options.
  const spec = EJSON.parse(fs.readFileSync(file, 'utf8'), { relaxed: true }) as Doc;
  const name = path.basename(file);
  const outcomes: SpecOutcome[] = [];
  const fileSkip = meets(spec.runOnRequirements as Doc[]);
  const admin = new MongoClient(uri);
  await admin.connect();
  try {
    for (const test of spec.tests as Doc[]) {
      const label = String(test.description);
      const skip =
        fileSkip ??
        (test.skipReason ? String(test.skipReason) : meets(test.runOnRequirements as Doc[]));
      if (skip) {
        outcomes.push({ file: name, test: label, status: 'skipped', reason: skip });
        continue;
      }
      const entities: Entities = {
        clients: new Map(),
        dbs: new Map(),
        collections: new Map(),
        sessions: new Map(),
        results: new Map(),
      };
      try {
        await loadData(admin, spec.initialData as Doc[]);
        await setUp(uri, spec, entities);
        for (const op of test.operations as Doc[]) await check(entities, op);
        for (const expected of (test.outcome as Doc[]) ?? []) {
          const actual = await admin
            .db(String(expected.databaseName))
            .collection(String(expected.collectionName))
            .find({}, { sort: { _id: 1 } })
            .toArray();
          const problem = match(
            expected.documents,
            EJSON.parse(EJSON.stringify(actual, { relaxed: false }), { relaxed: false }),
            false,
            `outcome ${String(expected.collectionName)}`,
          );
          if (problem) throw new Error(problem);
        }
        outcomes.push({ file: name, test: label, status: 'passed' });
      } catch (error) {
        if (error instanceof Skip)
          outcomes.push({
            file: name,
            test: label,
            status: 'skipped',
            reason: `runner: ${error.message}`,
          });
        else
          outcomes.push({
            file: name,
            test: label,
            status: 'failed',
            reason: (error as Error).message,
          });
      } finally {
        for (const s of entities.sessions.values()) await s.endSession().catch(() => undefined);
        for (const c of entities.clients.values()) await c.close().catch(() => undefined);
      }
    }
  } finally {
    await admin.close();
  }
  return outcomes;
}

/** The skip list of docs/engine.md: lines `- \`file.json\`: test description — why`. */
export function documentedSkips(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/^- `([^`]+\.json)`: (.+?) — /gm))
    found.add(`${m[1]}: ${m[2]}`);
  return found;
}
