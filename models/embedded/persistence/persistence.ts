/**
 * The durability layer the engine talks to: a journal with group commit, background snapshots
 * that compact it, recovery on open, and the data-directory lock. File layout and crash safety:
 * layout.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CollectionImage, Mutation } from '../types';
import { decodeOptions, encodeBatch } from './codec';
import { frameRecord } from './framing';
import { removeIfPresent } from './fsutil';
import { JournalWriter, openJournalFile, type JournalFile } from './journal';
import { inDir, journalName, listDataDir, snapshotName } from './layout';
import { acquireLock, type DirLock } from './lock';
import { recover } from './recovery';
import { writeSnapshot } from './snapshot';

export interface PersistenceOptions {
  dataDir: string;
  /** Default true: an append resolves only after fdatasync. Snapshots are always fsynced. */
  fsync?: boolean;
  /** Journal size after which shouldSnapshot() turns true; default 64 MiB. */
  snapshotJournalBytes?: number;
  /**
   * Default true: stored regexes come back as BSONRegExp, as the engine's wire decoder (wire.ts)
   * produces them, so flags such as `x` and `s` survive. False gives JS RegExp (bson's mapping).
   */
  bsonRegExp?: boolean;
}

/** Snapshot content, then journal batches to replay in order. */
export interface Recovered {
  images: CollectionImage[];
  batches: Mutation[][];
  /** What recovery repaired (torn journal tail, damaged files set aside), worth a log line each. */
  repairs: string[];
}

export interface Persistence {
  readonly dataDir: string;
  append(batch: Mutation[]): Promise<void>;
  shouldSnapshot(): boolean;
  snapshot(capture: () => CollectionImage[]): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_SNAPSHOT_JOURNAL_BYTES = 64 * 1024 * 1024;

class FilePersistence implements Persistence {
  private running: Promise<void> | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    readonly dataDir: string,
    private readonly writer: JournalWriter,
    private readonly lock: DirLock,
    private readonly snapshotJournalBytes: number,
    /** Journal bytes not covered by a snapshot (finished or running). */
    private journalBytes: number,
  ) {}

  append(batch: Mutation[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('persistence is closed'));
    let record: Buffer;
    try {
      record = frameRecord(encodeBatch(batch));
    } catch (err) {
      return Promise.reject(err);
    }
    this.journalBytes += record.length;
    return this.writer.append(record);
  }

  shouldSnapshot(): boolean {
    return !this.running && !this.closing && this.journalBytes >= this.snapshotJournalBytes;
  }

  snapshot(capture: () => CollectionImage[]): Promise<void> {
    if (this.running) return this.running;
    if (this.closing) return Promise.reject(new Error('persistence is closed'));
    let images: CollectionImage[];
    let previous: JournalFile;
    try {
      // Capture and rotate in the same tick: no append can land between them.
      images = capture();
      previous = this.writer.rotate();
    } catch (err) {
      return Promise.reject(err);
    }
    const covered = this.journalBytes;
    this.journalBytes = 0;
    const run = this.writeAndCompact(this.writer.currentGen, images, previous).catch(
      (err: unknown) => {
        this.journalBytes += covered; // the old journals still hold that history
        throw err;
      },
    );
    this.running = run.finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async writeAndCompact(
    gen: number,
    images: CollectionImage[],
    previous: JournalFile,
  ): Promise<void> {
    try {
      await writeSnapshot(this.dataDir, gen, images);
    } finally {
      await this.writer.retire(previous);
    }
    // Only now are older files superseded; a crash before or during this loop leaves extras
    // that recovery ignores and removes.
    const listing = listDataDir(this.dataDir);
    for (const old of listing.journals)
      if (old < gen) removeIfPresent(inDir(this.dataDir, journalName(old)));
    for (const old of listing.snapshots)
      if (old < gen) removeIfPresent(inDir(this.dataDir, snapshotName(old)));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.running?.catch(() => undefined);
        await this.writer.close();
      } finally {
        this.lock.release();
      }
    })();
    return this.closing;
  }
}

export async function openPersistence(
  opts: PersistenceOptions,
): Promise<{ persistence: Persistence; recovered: Recovered }> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = await acquireLock(dataDir);
  try {
    const result = await recover(dataDir, decodeOptions(opts.bsonRegExp ?? true));
    const writer = new JournalWriter(
      dataDir,
      openJournalFile(dataDir, result.currentGen, result.currentSize),
      opts.fsync ?? true,
    );
    const persistence = new FilePersistence(
      dataDir,
      writer,
      lock,
      opts.snapshotJournalBytes ?? DEFAULT_SNAPSHOT_JOURNAL_BYTES,
      result.journalBytes,
    );
    return {
      persistence,
      recovered: { images: result.images, batches: result.batches, repairs: result.repairs },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
