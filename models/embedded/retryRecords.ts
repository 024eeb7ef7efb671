/**
 * Retry records: the answer to each session's last retryable write, and which transaction it last
 * committed, kept where MongoDB keeps them (`config.transactions`, one row per session) and written
 * in the same journal batch as the write itself.
 *
 * A driver that loses a reply (the connection cut, the database host killed) sends the command
 * again with the same session and transaction number. While the engine runs, the session in memory
 * answers that retry; once it has restarted, only this record can — without it a retried insert
 * fails with a duplicate key, an `$inc` lands twice, and a retried commit is told its transaction
 * never existed.
 */
import type { Document } from 'bson';
import type { Store } from './store';
import type { Mutation } from './types';
import { canonicalKey } from './values';

const DB = 'config';
const COLL = 'transactions';

/** A record outlives its session's last use by this long, as MongoDB's session timeout. */
export const RETRY_RECORD_TTL_MS = 30 * 60 * 1000;

interface RetryRecord {
  _id: string;
  txnNum: number;
  lastWriteDate: Date;
  /** The reply to the retryable write numbered `txnNum`. */
  reply?: Document;
  /** Set when `txnNum` is a transaction that committed. */
  committed?: true;
}

/** The mutation that records a session's latest outcome (to journal with the write it answers). */
export function recordOutcome(
  sessionKey: string,
  txnNumber: number,
  outcome: { reply: Document } | { committed: true },
): Mutation {
  const doc: RetryRecord = {
    _id: sessionKey,
    txnNum: txnNumber,
    lastWriteDate: new Date(),
    ...outcome,
  };
  return { op: 'put', db: DB, coll: COLL, doc };
}

function recordOf(store: Store, sessionKey: string, txnNumber: number): RetryRecord | undefined {
  const record = store.collection(DB, COLL)?.get(canonicalKey(sessionKey)) as
    RetryRecord | undefined;
  return record?.txnNum === txnNumber ? record : undefined;
}

/** The reply recorded for this session's retryable write `txnNumber`, if it ran. */
export function recordedReply(
  store: Store,
  sessionKey: string,
  txnNumber: number,
): Document | undefined {
  return recordOf(store, sessionKey, txnNumber)?.reply;
}

/** Whether this session's transaction `txnNumber` committed. */
export function recordedCommit(store: Store, sessionKey: string, txnNumber: number): boolean {
  return recordOf(store, sessionKey, txnNumber)?.committed === true;
}

/** Deletions of the records of sessions idle past the timeout and not in use now. */
export function expiredRecords(
  store: Store,
  now: number,
  inUse: (sessionKey: string) => boolean,
): Mutation[] {
  const coll = store.collection(DB, COLL);
  if (!coll) return [];
  const expired: Mutation[] = [];
  for (const record of coll.docs.values() as Iterable<RetryRecord>) {
    const idle = now - new Date(record.lastWriteDate).getTime() > RETRY_RECORD_TTL_MS;
    if (idle && !inUse(record._id)) expired.push({ op: 'del', db: DB, coll: COLL, id: record._id });
  }
  return expired;
}
