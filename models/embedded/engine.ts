/**
 * The engine: the store, its persistence, sessions, cursors, and command dispatch. Transport
 * (TCP / unix socket) lives in server.ts; this file turns one decoded command into one reply.
 *
 * Write path: a command applies its mutations to memory (a recording workspace, or the session's
 * transaction), then the batch is appended to the journal and the reply waits for the fsync.
 */
import { Query } from 'mingo/query';
import { Long, type Document } from 'bson';
import type { Mutation } from './types';
import { applyMutation, Store, type Workspace } from './store';
import { CursorRegistry } from './cursors';
import { SessionRegistry, Transaction, noSuchTransaction, type Session } from './transactions';
import { asServerFailure, ErrorCodes, fail, MongoServerFailure } from './errors';
import { mingoOptions } from './matcher';
import { canonicalKey, cloneDocument, valuesAtPath } from './values';
import { expiredRecords, recordedCommit, recordedReply, recordOutcome } from './retryRecords';
import type { CommandContext, EngineServices, Handler } from './commands/context';
import { writeCommands } from './commands/writes';
import { readCommands } from './commands/reads';
import { ddlCommands } from './commands/ddl';
import { adminCommands } from './commands/admin';

export interface DurableLog {
  append(batch: Mutation[]): Promise<void>;
  shouldSnapshot(): boolean;
  snapshot(capture: () => ReturnType<Store['capture']>): Promise<void>;
  close(): Promise<void>;
}

/** A workspace that writes straight to the store and remembers what it wrote. */
class RecordingWorkspace implements Workspace {
  readonly mutations: Mutation[] = [];
  constructor(private readonly store: Store) {}
  get seq(): number {
    return this.store.seq;
  }
  collection(db: string, name: string) {
    return this.store.collection(db, name);
  }
  apply(m: Mutation): void {
    applyMutation(this.store, m);
    this.mutations.push(m);
  }
}

const handlers: Record<string, Handler> = {
  ...writeCommands,
  ...readCommands,
  ...ddlCommands,
  ...adminCommands,
};
const handlersLower = new Map(Object.entries(handlers).map(([k, v]) => [k.toLowerCase(), v]));

/** Fields of a command that are envelope, not the command's own name. */
const NOT_A_COMMAND = new Set([
  '$db',
  'lsid',
  'txnNumber',
  '$clusterTime',
  '$readPreference',
  'autocommit',
  'startTransaction',
]);

/** Whether the command's write concern lets its answer skip waiting for the journal. */
function journalWaived(command: Document): boolean {
  const concern = command.writeConcern as Document | undefined;
  if (!concern || typeof concern !== 'object') return false;
  return concern.j === false || concern.w === 0;
}

const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findandmodify',
  'bulkwrite',
  'create',
  'drop',
  'dropdatabase',
  'createindexes',
  'dropindexes',
  'deleteindexes',
  'renamecollection',
]);

export interface EngineInfo {
  host: string;
  port: number;
}

export class Engine implements EngineServices {
  readonly store = new Store();
  readonly cursors = new CursorRegistry();
  readonly sessions = new SessionRegistry();
  info: EngineInfo = { host: '127.0.0.1', port: 0 };
  private log: DurableLog | null;
  private ttlTimer: NodeJS.Timeout;
  private sweepTimer: NodeJS.Timeout;
  private snapshotting: Promise<void> | null = null;
  private pendingWrites = new Set<Promise<void>>();
  private closed = false;
  /** Set when the journal failed: memory may hold writes the disk does not, so writes stop. */
  private storageFailure: Error | null = null;
  readonly startedAt = new Date();

  constructor(log: DurableLog | null, opts: { ttlIntervalMs?: number } = {}) {
    this.log = log;
    this.ttlTimer = setInterval(() => void this.expireTtl(), opts.ttlIntervalMs ?? 1000);
    this.ttlTimer.unref();
    this.sweepTimer = setInterval(() => void this.sweep(), 60_000);
    this.sweepTimer.unref();
  }

  /**
   * Housekeeping, once a minute: idle cursors and sessions go, and so do the versions of removed
   * documents no open transaction can conflict on and the retry records of long-idle sessions.
   */
  sweep(now = Date.now()): Promise<void> {
    this.cursors.sweep();
    this.sessions.sweep(now);
    const upTo = this.sessions.oldestOpenStart(this.store.seq);
    for (const colls of this.store.dbs.values())
      for (const coll of colls.values()) coll.forgetVersionsUpTo(upTo);
    return this.forgetExpiredRetryRecords(now);
  }

  cursorZero(): Long {
    return Long.ZERO;
  }

  project(docs: Document[], projection: Document): Document[] {
    const simple = simpleProjection(projection);
    if (simple) return docs.map(simple);
    try {
      return new Query({}, mingoOptions()).find(docs, projection).all() as Document[];
    } catch (err) {
      return fail(ErrorCodes.BadValue, (err as Error).message);
    }
  }

  /** Runs one command and returns its reply document (errors included, never thrown). */
  async run(command: Document, connectionId: number): Promise<Document> {
    const name = Object.keys(command).find((k) => !NOT_A_COMMAND.has(k));
    const handler = name ? (handlers[name] ?? handlersLower.get(name.toLowerCase())) : undefined;
    if (!name || !handler) {
      return new MongoServerFailure(
        ErrorCodes.CommandNotFound,
        `no such command: '${name ?? ''}'`,
      ).toReply();
    }
    const db = typeof command.$db === 'string' ? command.$db : 'admin';
    try {
      const session = command.lsid ? this.sessions.get(command.lsid as Document) : undefined;
      if (session && command.autocommit === false)
        return await this.runInTransaction(name, handler, command, db, session, connectionId);
      const txnNumber = command.txnNumber === undefined ? undefined : Number(command.txnNumber);
      const retryable = session && txnNumber !== undefined ? { session, txnNumber } : undefined;
      if (retryable) {
        const { retried, key } = retryable.session;
        const earlier =
          retried?.txnNumber === retryable.txnNumber
            ? retried.reply
            : recordedReply(this.store, key, retryable.txnNumber);
        if (earlier) return earlier;
      }
      const reply = await this.runDirect(handler, command, db, session, connectionId, retryable);
      if (retryable) retryable.session.retried = { txnNumber: retryable.txnNumber, reply };
      return reply;
    } catch (err) {
      return asServerFailure(err).toReply();
    }
  }

  private async runDirect(
    handler: Handler,
    command: Document,
    db: string,
    session: Session | undefined,
    connectionId: number,
    retryable?: { session: Session; txnNumber: number },
  ): Promise<Document> {
    if (this.storageFailure && WRITE_COMMANDS.has(Object.keys(command)[0]?.toLowerCase())) {
      fail(
        ErrorCodes.InternalError,
        `the engine's journal failed earlier and it no longer accepts writes: ${this.storageFailure.message}`,
      );
    }
    const ws = new RecordingWorkspace(this.store);
    const ctx: CommandContext = {
      engine: this,
      db,
      ws,
      inTransaction: false,
      session,
      connectionId,
    };
    let reply: Document;
    try {
      reply = await handler(command, ctx);
      // A retryable write that changed something leaves its answer in the same journal batch,
      // for a retry that reaches the engine after a restart (retryRecords.ts).
      if (retryable && ws.mutations.length)
        ws.apply(recordOutcome(retryable.session.key, retryable.txnNumber, { reply }));
    } finally {
      // Whatever reached memory must reach the journal, even when the command failed half-way.
      // A write concern without the journal (`j: false`, `w: 0`) is answered once applied, as
      // MongoDB answers it: its batch still goes to the journal in order — a later journaled
      // write's fsync covers it — and a failure stops writes as any journal failure does.
      if (ws.mutations.length) {
        if (journalWaived(command)) this.persist(ws.mutations).catch(() => undefined);
        else await this.persist(ws.mutations);
      }
    }
    return reply;
  }

  private async runInTransaction(
    name: string,
    handler: Handler,
    command: Document,
    db: string,
    session: Session,
    connectionId: number,
  ): Promise<Document> {
    const txnNumber = Number(command.txnNumber);
    const lower = name.toLowerCase();
    if (command.startTransaction) {
      if (txnNumber < session.txnNumber)
        fail(
          ErrorCodes.TransactionTooOld,
          `Cannot start transaction ${txnNumber} on session because a newer transaction ${session.txnNumber} has already started`,
        );
      session.txn?.abort();
      session.txnNumber = txnNumber;
      session.txn = new Transaction(this.store, txnNumber, this.sessions.claims);
      // Snapshot read concern promises one point in time for every read of the transaction, as
      // MongoDB gives it (a backup relies on it): copy every collection now, synchronously,
      // instead of each on its first touch.
      if ((command.readConcern as Document | undefined)?.level === 'snapshot')
        session.txn.collections(db);
    }
    const txn = session.txn;
    if (lower === 'committransaction') {
      if (txn && txn.txnNumber === txnNumber && txn.state === 'committed') return { ok: 1 };
      // A commit retried after a restart: the session is new here, its record is not.
      if (!txn && recordedCommit(this.store, session.key, txnNumber)) return { ok: 1 };
      if (!txn || txn.txnNumber !== txnNumber || txn.state !== 'active')
        throw noSuchTransaction(txnNumber);
      const mutations = txn.commit();
      if (mutations.length) {
        const ws = new RecordingWorkspace(this.store);
        ws.apply(recordOutcome(session.key, txnNumber, { committed: true }));
        await this.persist([...mutations, ...ws.mutations]);
      }
      return { ok: 1 };
    }
    if (lower === 'aborttransaction') {
      if (!txn || txn.txnNumber !== txnNumber || txn.state !== 'active')
        throw noSuchTransaction(txnNumber);
      txn.abort();
      return { ok: 1 };
    }
    if (!txn || txn.txnNumber !== txnNumber || txn.state !== 'active')
      throw noSuchTransaction(txnNumber);
    const ctx: CommandContext = {
      engine: this,
      db,
      ws: txn,
      inTransaction: true,
      session,
      connectionId,
    };
    try {
      const reply = await handler(command, ctx);
      if (Array.isArray(reply.writeErrors) && reply.writeErrors.length) txn.abort(); // as MongoDB: any error ends the transaction
      return reply;
    } catch (err) {
      txn.abort();
      throw err;
    }
  }

  private async persist(batch: Mutation[]): Promise<void> {
    if (!this.log) return;
    const write = this.log.append(batch);
    this.pendingWrites.add(write);
    try {
      await write;
    } catch (err) {
      this.storageFailure ??= err instanceof Error ? err : new Error(String(err));
      throw new MongoServerFailure(
        ErrorCodes.InternalError,
        `journal write failed, the engine no longer accepts writes: ${this.storageFailure.message}`,
      );
    } finally {
      this.pendingWrites.delete(write);
    }
    if (!this.snapshotting && this.log.shouldSnapshot()) {
      this.snapshotting = this.log
        .snapshot(() => this.store.capture())
        .catch(() => undefined)
        .finally(() => (this.snapshotting = null));
    }
  }

  /** Drops the retry records of sessions long idle (journaled, as any delete). */
  private async forgetExpiredRetryRecords(now: number): Promise<void> {
    if (this.closed || this.storageFailure) return;
    const expired = expiredRecords(this.store, now, (key) => this.sessions.has(key));
    if (!expired.length) return;
    const ws = new RecordingWorkspace(this.store);
    for (const m of expired) ws.apply(m);
    await this.persist(ws.mutations).catch(() => undefined);
  }

  /** Applies a batch (from recovery); not journaled again. */
  replay(batch: Mutation[]): void {
    for (const m of batch) applyMutation(this.store, m);
  }

  /** Deletes documents whose TTL index says they have expired. */
  async expireTtl(now = Date.now()): Promise<void> {
    if (this.closed) return;
    const ws = new RecordingWorkspace(this.store);
    for (const colls of this.store.dbs.values()) {
      for (const coll of colls.values()) {
        for (const index of coll.indexes.values()) {
          const ttl = index.ttlSeconds;
          if (ttl === undefined) continue;
          for (const doc of [...coll.docs.values()]) {
            const dates = valuesAtPath(doc, index.fields[0], true).filter(
              (v): v is Date => v instanceof Date,
            );
            if (dates.length === 0) continue;
            const earliest = Math.min(...dates.map((d) => d.getTime()));
            if (earliest + ttl * 1000 <= now && coll.docs.has(canonicalKey(doc._id)))
              ws.apply({ op: 'del', db: coll.db, coll: coll.name, id: cloneDocument(doc._id) });
          }
        }
      }
    }
    if (ws.mutations.length) await this.persist(ws.mutations);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ttlTimer);
    clearInterval(this.sweepTimer);
    this.sessions.abortAll();
    await Promise.allSettled([...this.pendingWrites]);
    if (this.snapshotting) await this.snapshotting;
    await this.log?.close();
  }
}

/**
 * Top-level inclusions (`{a: 1, b: 1}`, `_id` kept unless `_id: 0`) or exclusions (`{a: 0}`) —
 * what Quire's models send — done directly, fields in the document's order as MongoDB returns
 * them; undefined for anything else (paths, operators, expressions, mixed), which mingo does.
 */
function simpleProjection(projection: Document): ((doc: Document) => Document) | undefined {
  const included = new Set<string>();
  const excluded = new Set<string>();
  let keepId = true;
  for (const [field, value] of Object.entries(projection)) {
    if (field.includes('.') || field.startsWith('$')) return undefined;
    if (value !== 0 && value !== 1 && value !== true && value !== false) return undefined;
    const on = value === 1 || value === true;
    if (field === '_id') keepId = on;
    else (on ? included : excluded).add(field);
  }
  if (included.size && excluded.size) return undefined;
  const kept = (key: string) =>
    key === '_id' ? keepId : included.size ? included.has(key) : !excluded.has(key);
  return (doc) => {
    const out: Document = {};
    for (const key of Object.keys(doc)) if (kept(key)) out[key] = doc[key];
    return out;
  };
}
