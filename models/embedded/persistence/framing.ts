/**
 * Record framing shared by journals and snapshots: [u32 LE length][u32 LE crc32][payload].
 * The CRC covers the length field as well as the payload, so a flipped length bit is caught
 * even when the shorter or longer payload happens to be readable.
 */
import { crc32 } from 'node:zlib';
import { read } from './fsutil';

export const RECORD_HEADER_BYTES = 8;
/** Sanity bound on one record; anything larger is a corrupt length field. */
export const MAX_RECORD_BYTES = 1 << 30;

/** Frames a payload given as parts (avoids concatenating them first). */
export function frameRecord(parts: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + length);
  record.writeUInt32LE(length, 0);
  let offset = RECORD_HEADER_BYTES;
  for (const part of parts) {
    record.set(part, offset);
    offset += part.length;
  }
  record.writeUInt32LE(recordCrc(record.subarray(0, 4), record.subarray(RECORD_HEADER_BYTES)), 4);
  return record;
}

function recordCrc(lengthField: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(lengthField));
}

export type ReadResult =
  | { kind: 'record'; payload: Buffer; start: number; end: number }
  | { kind: 'end' }
  | { kind: 'bad'; at: number; reason: string };

/**
 * Reads records one after another from an open file, from `start` up to `fileSize`, through a
 * read-ahead buffer (journals hold many small records; one read per record would be slow).
 * Each payload is copied into a fresh buffer: decoded BSON Binary values keep a view on it, so it
 * must never be overwritten by later reads.
 */
export class RecordReader {
  private position: number;
  private buffer = Buffer.alloc(0);
  private chunkStart = 0; // file offset of buffer[0]
  private chunkLength = 0; // valid bytes in buffer

  constructor(
    private readonly fd: number,
    start: number,
    private readonly fileSize: number,
    private readonly readAhead = 1 << 20,
  ) {
    this.position = start;
  }

  get offset(): number {
    return this.position;
  }

  async next(): Promise<ReadResult> {
    const at = this.position;
    const left = this.fileSize - at;
    if (left === 0) return { kind: 'end' };
    if (left < RECORD_HEADER_BYTES) return { kind: 'bad', at, reason: 'torn record header' };
    const header = await this.bytes(at, RECORD_HEADER_BYTES);
    const length = header.readUInt32LE(0);
    const crc = header.readUInt32LE(4);
    const lengthField = Buffer.from(header.subarray(0, 4));
    if (length > MAX_RECORD_BYTES) return { kind: 'bad', at, reason: 'implausible record length' };
    if (length > left - RECORD_HEADER_BYTES) return { kind: 'bad', at, reason: 'torn record' };
    const payload = Buffer.allocUnsafe(length);
    (await this.bytes(at + RECORD_HEADER_BYTES, length)).copy(payload);
    if (recordCrc(lengthField, payload) !== crc) {
      return { kind: 'bad', at, reason: 'checksum mismatch' };
    }
    this.position = at + RECORD_HEADER_BYTES + length;
    return { kind: 'record', payload, start: at, end: this.position };
  }

  /** A view of `length` bytes at file offset `at`, valid until the next call. */
  private async bytes(at: number, length: number): Promise<Buffer> {
    if (at >= this.chunkStart && at + length <= this.chunkStart + this.chunkLength) {
      const from = at - this.chunkStart;
      return this.buffer.subarray(from, from + length);
    }
    const size = Math.min(Math.max(length, this.readAhead), this.fileSize - at);
    if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = await read(this.fd, this.buffer, done, size - done, at + done);
      if (n === 0) throw new Error('file shrank while being read');
      done += n;
    }
    this.chunkStart = at;
    this.chunkLength = size;
    return this.buffer.subarray(0, length);
  }
}
