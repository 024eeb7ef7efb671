/**
 * BSON encoding of journal batches and snapshot records.
 *
 * A payload is a run of BSON documents laid end to end (each starts with its own int32 size), so a
 * batch of several 16 MB documents never has to fit in one BSON document, and decoding walks the
 * run with `deserializeStream`.
 */
import { BSON, type DeserializeOptions } from 'bson';
import type { Document, Mutation } from '../types';
import { ownBinaries } from '../values';

const SERIALIZE = { checkKeys: false, serializeFunctions: false } as const;

/**
 * Decoding that gives back the JS values the engine stores: numbers for int32/double/small int64
 * (Long only beyond 2^53), ObjectId, Date, Decimal128, Binary, and for regexes BSONRegExp (what
 * the engine's wire decoder keeps) or, with `bsonRegExp: false`, RegExp.
 */
export function decodeOptions(bsonRegExp: boolean): DeserializeOptions {
  return { promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp };
}

export function encodeDocument(doc: Document): Uint8Array {
  return BSON.serialize(doc, SERIALIZE);
}

/** Decodes the documents of a run from `offset` up to `end` (default: the payload's end) into `into`. */
export function decodeDocumentRun(
  payload: Buffer,
  offset: number,
  options: DeserializeOptions,
  into: Document[] = [],
  end = payload.length,
): Document[] {
  let at = offset;
  while (at < end) {
    if (end - at < 5) throw new Error('truncated BSON document in record');
    const size = payload.readInt32LE(at);
    if (size < 5 || at + size > end) throw new Error('bad BSON document size in record');
    const index = into.length;
    at = BSON.deserializeStream(payload, at, 1, into, index, options);
    // Stored documents outlive the record they were read from.
    ownBinaries(into[index]);
  }
  return into;
}

/** Decodes the first document of a run; returns it and where the next one starts. */
export function decodeFirstDocument(
  payload: Buffer,
  options: DeserializeOptions,
): { doc: Document; next: number } {
  if (payload.length < 5) throw new Error('truncated BSON document in record');
  const size = payload.readInt32LE(0);
  if (size < 5 || size > payload.length) throw new Error('bad BSON document size in record');
  const [doc] = decodeDocumentRun(payload, 0, options, [], size);
  return { doc, next: size };
}

/** An insert's document as it came over the wire, kept on its put mutation for the journal. */
const PUT_BYTES = Symbol('put bytes');
type PutWithBytes = Mutation & { op: 'put'; [PUT_BYTES]?: Uint8Array };

/**
 * Declares that `bytes` are the BSON this put's document was decoded from, its fields in any
 * order (the journal's decode options give back exactly the stored document, `_id` first): the
 * journal copies them, `_id` moved first, instead of encoding the document again. (A symbol key:
 * never part of the mutation's own BSON.)
 */
export function journalPutBytes(mutation: Mutation & { op: 'put' }, bytes: Uint8Array): void {
  (mutation as PutWithBytes)[PUT_BYTES] = bytes;
}

/** The BSON size of a put's document when its bytes came with it (else undefined). */
export function knownPutSize(mutation: Mutation & { op: 'put' }): number | undefined {
  return (mutation as PutWithBytes)[PUT_BYTES]?.length;
}

/** One BSON document per mutation; the mutation object itself is the document. */
export function encodeBatch(batch: readonly Mutation[]): Uint8Array[] {
  return batch.map((mutation) => {
    const bytes = mutation.op === 'put' ? (mutation as PutWithBytes)[PUT_BYTES] : undefined;
    return (
      (bytes && encodePut(mutation as PutWithBytes, bytes)) ??
      encodeDocument(mutation as unknown as Document)
    );
  });
}

/** `{op: 'put', db: <db>, coll: <coll>, doc: ` as BSON up to the document's bytes, per namespace. */
const putHeads = new Map<string, Buffer>();

function putHead(db: string, coll: string): Buffer {
  const key = `${db}\u0000${coll}`;
  let head = putHeads.get(key);
  if (!head) {
    const string = (name: string, value: string) => {
      const text = Buffer.from(`${value}\u0000`);
      const length = Buffer.alloc(4);
      length.writeInt32LE(text.length);
      return [Buffer.from([0x02]), Buffer.from(`${name}\u0000`), length, text];
    };
    head = Buffer.concat([
      ...string('op', 'put'),
      ...string('db', db),
      ...string('coll', coll),
      Buffer.from([0x03]),
      Buffer.from('doc\u0000'),
    ]);
    if (putHeads.size >= 1000) putHeads.clear();
    putHeads.set(key, head);
  }
  return head;
}

/** Bytes of a BSON value of `type` at `at` (-1: a type this walk does not know). */
function valueSize(bytes: Uint8Array, view: DataView, type: number, at: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // code
    case 0x0e: // symbol
      return 4 + view.getInt32(at, true);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return view.getInt32(at, true);
    case 0x05: // binary
      return 5 + view.getInt32(at, true);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0b: {
      // regex: two C strings
      const end = bytes.indexOf(0, bytes.indexOf(0, at) + 1);
      return end < 0 ? -1 : end + 1 - at;
    }
    case 0x0c: // DBPointer
      return 4 + view.getInt32(at, true) + 12;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      return -1;
  }
}

/** Where a document's `_id` element starts and ends in its BSON; null without one (or unreadable). */
function idElement(doc: Uint8Array): [number, number] | null {
  const view = new DataView(doc.buffer, doc.byteOffset, doc.byteLength);
  const end = doc.length - 1;
  let at = 4;
  while (at < end) {
    const start = at;
    const type = doc[at++];
    const nameEnd = doc.indexOf(0, at);
    if (nameEnd < 0 || nameEnd >= end) return null;
    const isId =
      nameEnd - at === 3 && doc[at] === 0x5f && doc[at + 1] === 0x69 && doc[at + 2] === 0x64;
    at = nameEnd + 1;
    const size = valueSize(doc, view, type, at);
    if (size < 0 || at + size > end) return null;
    at += size;
    if (isId) return [start, at];
  }
  return null;
}

/**
 * `{op: 'put', db, coll, doc}` as BSON with the document's own bytes copied in, its `_id`
 * element moved first as the engine stores every document (drivers append a generated `_id`
 * last); undefined when the bytes hold no readable `_id`.
 */
function encodePut(mutation: PutWithBytes, doc: Uint8Array): Uint8Array | undefined {
  const id = idElement(doc);
  if (!id) return undefined;
  const [idStart, idEnd] = id;
  const head = putHead(mutation.db, mutation.coll);
  const size = 4 + head.length + doc.length + 1;
  const out = Buffer.allocUnsafe(size);
  out.writeInt32LE(size, 0);
  head.copy(out, 4);
  const at = 4 + head.length;
  // The document: its size, the `_id` element, the elements before it, the rest.
  out.set(doc.subarray(0, 4), at);
  out.set(doc.subarray(idStart, idEnd), at + 4);
  out.set(doc.subarray(4, idStart), at + 4 + idEnd - idStart);
  out.set(doc.subarray(idEnd), at + idEnd);
  out[size - 1] = 0;
  return out;
}

export function decodeBatch(payload: Buffer, options: DeserializeOptions): Mutation[] {
  return decodeDocumentRun(payload, 0, options) as unknown as Mutation[];
}
