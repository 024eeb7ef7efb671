/**
 * MongoDB wire protocol framing: OP_QUERY (only the legacy handshake uses it), OP_REPLY, OP_MSG.
 * https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
import { deserialize, serialize, Long, type Document } from 'bson';
import { decodeOptions } from './persistence/codec';
import { ownBinaries } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;

/**
 * Incoming BSON: regexes stay BSONRegExp (bson maps flags wrongly otherwise), longs become
 * numbers when exact — the journal's own options, so an insert's bytes journaled as they came
 * (`documentBytes`) replay to exactly the document stored.
 */
const DECODE = decodeOptions(true);

/** Commands whose body may carry values the engine stores (inserted documents, updates). */
const STORING_COMMANDS = new Set(['insert', 'update', 'findAndModify', 'findandmodify']);

export interface Incoming {
  requestId: number;
  opCode: number;
  /** The command document, with OP_MSG document sequences merged in as arrays. */
  command: Document;
  /** The client does not want a reply (OP_MSG moreToCome). */
  noReply: boolean;
  /** OP_QUERY's full collection name (`admin.$cmd`). */
  legacyNamespace?: string;
}

/**
 * The BSON bytes each document of an OP_MSG document sequence was decoded from (by the decoded
 * array, which lives as long as its command): an insert can journal them as they came instead
 * of encoding the same document again.
 */
const sequenceBytes = new WeakMap<Document[], Buffer[]>();

export function documentBytes(docs: Document[]): Buffer[] | undefined {
  return sequenceBytes.get(docs);
}

export function decodeMessage(buf: Buffer): Incoming {
  const requestId = buf.readInt32LE(4);
  const opCode = buf.readInt32LE(12);
  if (opCode === OP_MSG) return { requestId, opCode, ...decodeOpMsg(buf) };
  if (opCode === OP_QUERY) return { requestId, opCode, ...decodeOpQuery(buf) };
  throw new Error(`unsupported opCode ${opCode}`);
}

function decodeOpMsg(buf: Buffer): { command: Document; noReply: boolean } {
  const flags = buf.readUInt32LE(16);
  const end = flags & MSG_CHECKSUM_PRESENT ? buf.length - 4 : buf.length;
  let offset = 20;
  let command: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (offset < end) {
    const kind = buf[offset++];
    if (kind === 0) {
      const size = buf.readInt32LE(offset);
      command = deserialize(buf.subarray(offset, offset + size), DECODE);
      // A write's values are stored: they must not keep the message's chunk alive.
      if (STORING_COMMANDS.has(Object.keys(command)[0])) ownBinaries(command);
      offset += size;
    } else if (kind === 1) {
      const size = buf.readInt32LE(offset);
      const sectionEnd = offset + size;
      let p = offset + 4;
      const nameEnd = buf.indexOf(0, p);
      const identifier = buf.toString('utf8', p, nameEnd);
      p = nameEnd + 1;
      const docs: Document[] = [];
      const bytes: Buffer[] = [];
      while (p < sectionEnd) {
        const docSize = buf.readInt32LE(p);
        const raw = buf.subarray(p, p + docSize);
        const doc = deserialize(raw, DECODE);
        ownBinaries(doc);
        docs.push(doc);
        bytes.push(raw);
        p += docSize;
      }
      sequenceBytes.set(docs, bytes);
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new Error(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new Error('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) command[identifier] = docs;
  return { command, noReply: Boolean(flags & MSG_MORE_TO_COME) };
}

function decodeOpQuery(buf: Buffer): {
  command: Document;
  noReply: boolean;
  legacyNamespace: string;
} {
  let offset = 20; // header (16) + flags (4)
  const nameEnd = buf.indexOf(0, offset);
  const legacyNamespace = buf.toString('utf8', offset, nameEnd);
  offset = nameEnd + 1 + 8; // numberToSkip + numberToReturn
  const size = buf.readInt32LE(offset);
  let command = deserialize(buf.subarray(offset, offset + size), DECODE);
  if (command.$query && typeof command.$query === 'object') command = command.$query as Document;
  return { command, noReply: false, legacyNamespace };
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

const ENCODE = { checkKeys: false, ignoreUndefined: true } as const;

export function encodeOpMsg(responseTo: number, body: Document): Buffer {
  const doc = serialize(body, ENCODE);
  const prefix = Buffer.alloc(5); // flagBits (0) + section kind 0
  const length = 16 + prefix.length + doc.length;
  return Buffer.concat([header(length, responseTo, OP_MSG), prefix, doc]);
}

export function encodeOpReply(responseTo: number, body: Document): Buffer {
  const doc = serialize(body, ENCODE);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  fields.writeBigInt64LE(0n, 4); // cursorID
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  return Buffer.concat([
    header(16 + fields.length + doc.length, responseTo, OP_REPLY),
    fields,
    doc,
  ]);
}

/** Cursor ids must be BSON int64, also when 0. */
export function cursorId(id: number): Long {
  return id === 0 ? Long.ZERO : Long.fromNumber(id);
}

/**
 * Splits a TCP stream into whole messages. Guards against absurd lengths so a broken client
 * cannot make the engine allocate gigabytes.
 */
export class MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  static readonly MAX_MESSAGE = 48 * 1024 * 1024;

  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Buffer[] = [];
    while (this.buffered >= 4) {
      const head = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [head];
      const length = head.readInt32LE(0);
      if (length < 16 || length > MessageReader.MAX_MESSAGE)
        throw new Error(`invalid message length ${length}`);
      if (head.length < length) break;
      out.push(head.subarray(0, length));
      const rest = head.subarray(length);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
    }
    return out;
  }
}
