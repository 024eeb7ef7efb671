/**
 * Logical sessions, retryable writes and multi-document transactions.
 *
 * A transaction works on private copies of the collections it touches (copied on first touch),
 * so it reads its own writes and nobody else sees them. Each document it writes is claimed; a
 * second transaction writing the same document, or a document changed by someone else since
 * the transaction began, gets WriteConflict (112, TransientTransactionError) as in MongoDB.
 * Commit replays the transaction's mutations onto fresh copies of the current collections and
 * swaps them in at once, so a commit either lands whole or not at all.
 */
import type { Document } from 'bson';
import type { Mutation } from './types';
import { type Collection } from './collection';
import { applyMutation, type Store, type TransactionWorkspaceLike, type Workspace } from './store';
import { canonicalKey } from './values';
import { ErrorCodes, MongoServerFailure } from './errors';

const TRANSIENT = ['TransientTransactionError'];

export function writeConflict(): MongoServerFailure {
  return new MongoServerFailure(
    ErrorCodes.WriteConflict,
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    {},
    TRANSIENT,
  );
}

export function noSuchTransaction(txnNumber: number): MongoServerFailure {
  return new MongoServerFailure(
    ErrorCodes.NoSuchTransaction,
    `Transaction with { txnNumber: ${txnNumber} } has been aborted.`,
    {},
    TRANSIENT,
  );
}

/** Copies collections lazily from the store; a `null` entry is a collection dropped here. */
class CopyOnTouch implements TransactionWorkspaceLike {
  seq: number;
  protected copies = new Map<string, Collection | null>();

  constructor(protected readonly store: Store) {
    this.seq = store.seq;
  }

  get tracksVersions(): boolean {
    return this.store.tracksVersions;
  }

  collection(db: string, name: string): Collection | undefined {
    const ns = `${db}.${name}`;
    if (this.copies.has(ns)) return this.copies.get(ns) ?? undefined;
    const base = this.store.collection(db, name);
    if (!base) return undefined;
    const copy = base.clone();
    this.copies.set(ns, copy);
    return copy;
  }

  collections(db: string): Collection[] {
    const names = new Set(this.store.collections(db).map((c) => c.name));
    for (const [ns, c] of this.copies) if (ns.startsWith(`${db}.`) && c) names.add(c.name);
    return [...names]
      .map((n) => this.collection(db, n))
      .filter((c): c is Collection => c !== undefined);
  }

  setCollection(coll: Collection): void {
    this.copies.set(coll.ns, coll);
  }

  dropCollection(db: string, name: string): boolean {
    const had = this.collection(db, name) !== undefined;
    this.copies.set(`${db}.${name}`, null);
    return had;
  }

  /** Makes the copies the store's own collections. */
  swapIntoStore(): void {
    for (const [ns, coll] of this.copies) {
      const dot = ns.indexOf('.');
      const db = ns.slice(0, dot);
      const name = ns.slice(dot + 1);
      this.store.dropCollection(db, name);
      if (coll) this.store.setCollection(coll);
    }
    this.store.seq = this.seq;
  }
}

export class Transaction extends CopyOnTouch implements Workspace {
  readonly txnNumber: number;
  readonly startSeq: number;
  readonly mutations: Mutation[] = [];
  private readonly written = new Set<string>();
  state: 'active' | 'committed' | 'aborted' = 'active';

  constructor(
    store: Store,
    txnNumber: number,
    private readonly claims: Map<string, Transaction>,
  ) {
    super(store);
    this.txnNumber = txnNumber;
    this.startSeq = store.seq;
    store.openTransactions++;
  }

  apply(m: Mutation): void {
    if (m.op === 'put' || m.op === 'del') {
      const idKey = canonicalKey(m.op === 'put' ? m.doc._id : m.id);
      const claimKey = `${m.db}.${m.coll}\u0000${idKey}`;
      const holder = this.claims.get(claimKey);
      if (holder && holder !== this) throw writeConflict();
      if (this.changedSinceStart(m.db, m.coll, idKey)) throw writeConflict();
      this.claims.set(claimKey, this);
      this.written.add(claimKey);
    }
    applyMutation(this, m);
    this.mutations.push(m);
  }

  private changedSinceStart(db: string, coll: string, idKey: string): boolean {
    return (this.store.collection(db, coll)?.versions.get(idKey) ?? 0) > this.startSeq;
  }

  /** Applies the transaction to the store atomically; returns the mutations to journal. */
  commit(): Mutation[] {
    for (const claimKey of this.written) {
      const [ns, idKey] = claimKey.split('\u0000');
      const dot = ns.indexOf('.');
      if (this.changedSinceStart(ns.slice(0, dot), ns.slice(dot + 1), idKey)) {
        this.abort();
        throw writeConflict();
      }
    }
    const replay = new CopyOnTouch(this.store);
    try {
      for (const m of this.mutations) applyMutation(replay, m);
    } catch (err) {
      this.abort();
      throw err;
    }
    replay.swapIntoStore();
    this.release('committed');
    return this.mutations;
  }

  abort(): void {
    if (this.state === 'active') this.release('aborted');
  }

  private release(state: 'committed' | 'aborted'): void {
    this.state = state;
    this.store.openTransactions--;
    for (const key of this.written) if (this.claims.get(key) === this) this.claims.delete(key);
  }
}

export class Session {
  /** The session's id as a string: the key of its retry record (engine.ts). */
  constructor(readonly key: string) {}
  lastUse = Date.now();
  txnNumber = -1;
  txn?: Transaction;
  /** The reply to the last retryable write, returned again if the driver retries it. */
  retried?: { txnNumber: number; reply: Document };
}

export class SessionRegistry {
  private sessions = new Map<string, Session>();
  readonly claims = new Map<string, Transaction>();
  static readonly IDLE_MS = 30 * 60 * 1000;

  get(lsid: Document): Session {
    const id = lsid.id as { toString(enc: string): string } | undefined;
    const key = id && typeof id.toString === 'function' ? id.toString('hex') : canonicalKey(lsid);
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = new Session(key)));
    s.lastUse = Date.now();
    return s;
  }

  end(lsid: Document): void {
    const id = lsid.id as { toString(enc: string): string } | undefined;
    const key = id && typeof id.toString === 'function' ? id.toString('hex') : canonicalKey(lsid);
    this.sessions.get(key)?.txn?.abort();
    this.sessions.delete(key);
  }

  /** The store sequence number the oldest open transaction started at (`current` if none). */
  oldestOpenStart(current: number): number {
    let oldest = current;
    for (const s of this.sessions.values())
      if (s.txn?.state === 'active') oldest = Math.min(oldest, s.txn.startSeq);
    return oldest;
  }

  /** Whether a session with this key has been used since the engine started. */
  has(key: string): boolean {
    return this.sessions.has(key);
  }

  /** Forgets idle sessions and aborts their open transactions. */
  sweep(now = Date.now()): void {
    for (const [key, s] of this.sessions) {
      if (now - s.lastUse > SessionRegistry.IDLE_MS) {
        s.txn?.abort();
        this.sessions.delete(key);
      }
    }
  }

  abortAll(): void {
    for (const s of this.sessions.values()) s.txn?.abort();
  }
}
