/**
 * Snapshot files: a header, then records framed like journal records, written as a stream.
 *
 *   { t: 'c', db, coll, options, indexes, n }   a collection; its n documents follow
 *   { t: 'd', n } + n BSON documents             up to ~1 MB of one collection's documents
 *   { t: 'e', colls, docs }                      end marker with totals: a snapshot without it,
 *                                                or whose totals disagree, is not complete
 *
 * The writer serialises one chunk while the previous one is being written, so a big image costs
 * about one pass of BSON encoding, and the event loop gets a turn between chunks.
 */
import fs from 'node:fs';
import type { DeserializeOptions } from 'bson';
import type { CollectionImage, Document } from '../types';
import { decodeDocumentRun, decodeFirstDocument, encodeDocument } from './codec';
import { close, fsync, fsyncDir, removeIfPresent, writeAll } from './fsutil';
import { frameRecord, RecordReader } from './framing';
import {
  FILE_HEADER_BYTES,
  fileHeader,
  inDir,
  isFileHeader,
  SNAPSHOT_MAGIC,
  snapshotName,
  snapshotTempName,
} from './layout';

// Small enough that encoding one chunk blocks the event loop only briefly.
const CHUNK_BYTES = 256 * 1024;

export interface SnapshotStats {
  collections: number;
  docs: number;
  bytes: number;
}

/** Writes snapshot `gen` durably: temp file, fsync, rename, directory fsync. */
export async function writeSnapshot(
  dataDir: string,
  gen: number,
  images: CollectionImage[],
): Promise<SnapshotStats> {
  const tempPath = inDir(dataDir, snapshotTempName(gen));
  const fd = fs.openSync(tempPath, 'w');
  let position = 0;
  let inFlight: Promise<void> = Promise.resolve();
  // Issue a write without waiting for it; the next one waits for its predecessor first.
  const emit = async (data: Buffer): Promise<void> => {
    await inFlight;
    inFlight = writeAll(fd, data, position);
    position += data.length;
  };
  const stats: SnapshotStats = { collections: 0, docs: 0, bytes: 0 };
  try {
    await emit(fileHeader(SNAPSHOT_MAGIC, gen));
    for (const image of images) {
      const { db, coll, options, indexes, docs } = image;
      await emit(
        frameRecord([encodeDocument({ t: 'c', db, coll, options, indexes, n: docs.length })]),
      );
      stats.collections++;
      let parts: Uint8Array[] = [];
      let size = 0;
      for (const doc of docs) {
        const bytes = encodeDocument(doc);
        parts.push(bytes);
        size += bytes.length;
        if (size >= CHUNK_BYTES) {
          await emit(frameRecord([encodeDocument({ t: 'd', n: parts.length }), ...parts]));
          parts = [];
          size = 0;
        }
      }
      if (parts.length > 0)
        await emit(frameRecord([encodeDocument({ t: 'd', n: parts.length }), ...parts]));
      stats.docs += docs.length;
    }
    await emit(
      frameRecord([encodeDocument({ t: 'e', colls: stats.collections, docs: stats.docs })]),
    );
    await inFlight;
    await fsync(fd);
  } catch (err) {
    await inFlight.catch(() => undefined);
    await close(fd).catch(() => undefined);
    removeIfPresent(tempPath);
    throw err;
  }
  await close(fd);
  fs.renameSync(tempPath, inDir(dataDir, snapshotName(gen)));
  await fsyncDir(dataDir);
  stats.bytes = position;
  return stats;
}

export class DamagedSnapshotError extends Error {}

/** Loads snapshot `gen`; throws DamagedSnapshotError unless it is complete and intact. */
export async function readSnapshot(
  dataDir: string,
  gen: number,
  options: DeserializeOptions,
): Promise<CollectionImage[]> {
  const file = inDir(dataDir, snapshotName(gen));
  const fd = fs.openSync(file, 'r');
  const damaged = (why: string): DamagedSnapshotError =>
    new DamagedSnapshotError(`${file}: ${why}`);
  try {
    const size = fs.fstatSync(fd).size;
    const header = Buffer.alloc(FILE_HEADER_BYTES);
    fs.readSync(fd, header, 0, FILE_HEADER_BYTES, 0);
    if (!isFileHeader(header, SNAPSHOT_MAGIC, gen)) throw damaged('bad header');
    const reader = new RecordReader(fd, FILE_HEADER_BYTES, size, 4 * CHUNK_BYTES);
    const images: CollectionImage[] = [];
    let current: { image: CollectionImage; expected: number } | null = null;
    let totalDocs = 0;
    for (;;) {
      const result = await reader.next();
      if (result.kind === 'end') throw damaged('no end record');
      if (result.kind === 'bad') throw damaged(`${result.reason} at offset ${result.at}`);
      let first: { doc: Document; next: number };
      try {
        first = decodeFirstDocument(result.payload, options);
      } catch (err) {
        throw damaged((err as Error).message);
      }
      const head = first.doc;
      if (head.t !== 'd' && current && current.image.docs.length !== current.expected) {
        throw damaged(`collection ${current.image.db}.${current.image.coll} is missing documents`);
      }
      if (head.t === 'c') {
        const image: CollectionImage = {
          db: head.db,
          coll: head.coll,
          options: head.options,
          indexes: head.indexes,
          docs: [],
        };
        images.push(image);
        current = { image, expected: head.n };
      } else if (head.t === 'd') {
        if (!current) throw damaged('documents before any collection');
        const before = current.image.docs.length;
        try {
          decodeDocumentRun(result.payload, first.next, options, current.image.docs);
        } catch (err) {
          throw damaged((err as Error).message);
        }
        if (current.image.docs.length - before !== head.n)
          throw damaged('document count mismatch in chunk');
        totalDocs += head.n;
      } else if (head.t === 'e') {
        if (head.colls !== images.length || head.docs !== totalDocs)
          throw damaged('totals do not match');
        if ((await reader.next()).kind !== 'end') throw damaged('data after the end record');
        return images;
      } else {
        throw damaged(`unknown record type ${String(head.t)}`);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
