/**
 * BSON encoding of journal batches and snapshot records.
 *
 * A payload is a run of BSON documents laid end to end (each starts with its own int32 size), so a
 * batch of several 16 MB documents never has to fit in one BSON document, and decoding walks the
 * run with `deserializeStream`.
 */
import { BSON, type DeserializeOptions } from 'bson';
import type { Document, Mutation } from '../types';

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
    at = BSON.deserializeStream(payload, at, 1, into, into.length, options);
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

/** One BSON document per mutation; the mutation object itself is the document. */
export function encodeBatch(batch: readonly Mutation[]): Uint8Array[] {
  return batch.map((mutation) => encodeDocument(mutation as unknown as Document));
}

export function decodeBatch(payload: Buffer, options: DeserializeOptions): Mutation[] {
  return decodeDocumentRun(payload, 0, options) as unknown as Mutation[];
}
