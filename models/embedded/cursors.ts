/** Server-side cursors: the rest of a result set, handed out in batches by getMore. */
import { calculateObjectSize, type Document } from 'bson';
import { cursorId } from './wire';
import { ErrorCodes, fail } from './errors';

interface OpenCursor {
  ns: string;
  docs: Document[];
  pos: number;
  lastUse: number;
}

const FIRST_BATCH = 101;
/** Stay under the 16 MiB reply limit with room for the envelope. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

export class CursorRegistry {
  private cursors = new Map<number, OpenCursor>();
  private nextId = 1 + Math.floor(Math.random() * 1e9);
  static readonly IDLE_MS = 10 * 60 * 1000;

  /** The reply of find/aggregate/listX: first batch, and a cursor if more remain. */
  open(ns: string, docs: Document[], batchSize: number | undefined, singleBatch = false): Document {
    const { batch, next } = takeBatch(docs, 0, batchSize ?? FIRST_BATCH);
    let id = 0;
    if (next < docs.length && !singleBatch) {
      id = this.nextId++;
      this.cursors.set(id, { ns, docs, pos: next, lastUse: Date.now() });
    }
    return { cursor: { firstBatch: batch, id: cursorId(id), ns }, ok: 1 };
  }

  getMore(id: number, ns: string, batchSize: number | undefined): Document {
    const c = this.cursors.get(id);
    if (!c) return fail(ErrorCodes.CursorNotFound, `cursor id ${id} not found`);
    if (c.ns !== ns)
      fail(
        ErrorCodes.Unauthorized,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${c.ns}`,
      );
    const { batch, next } = takeBatch(c.docs, c.pos, batchSize ?? Number.MAX_SAFE_INTEGER);
    c.pos = next;
    c.lastUse = Date.now();
    let replyId = id;
    if (next >= c.docs.length) {
      this.cursors.delete(id);
      replyId = 0;
    }
    return { cursor: { nextBatch: batch, id: cursorId(replyId), ns }, ok: 1 };
  }

  kill(ids: number[]): Document {
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const id of ids) (this.cursors.delete(id) ? killed : notFound).push(id);
    return {
      cursorsKilled: killed.map(cursorId),
      cursorsNotFound: notFound.map(cursorId),
      cursorsAlive: [],
      cursorsUnknown: [],
      ok: 1,
    };
  }

  sweep(now = Date.now()): void {
    for (const [id, c] of this.cursors)
      if (now - c.lastUse > CursorRegistry.IDLE_MS) this.cursors.delete(id);
  }

  get size(): number {
    return this.cursors.size;
  }
}

function takeBatch(
  docs: Document[],
  from: number,
  limit: number,
): { batch: Document[]; next: number } {
  const batch: Document[] = [];
  let bytes = 0;
  let i = from;
  while (i < docs.length && batch.length < limit) {
    const size = calculateObjectSize(docs[i], { ignoreUndefined: true });
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(docs[i]);
    bytes += size;
    i++;
  }
  return { batch, next: i };
}
