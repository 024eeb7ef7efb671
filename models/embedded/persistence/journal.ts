/**
 * The journal writer: appends framed records to the current journal file with group commit.
 *
 * While one write+fdatasync is in flight, new records queue up; when it finishes, everything queued
 * goes out in the next single write+fdatasync. Records reach the disk in append order, across a
 * rotation too: records queued for the old file are written and synced before any record of the
 * new one, so the journals on disk are always a prefix of the append sequence.
 *
 * A failed write or fsync is fatal for this writer (after a failed fsync the kernel may have
 * dropped the dirty pages, so retrying could acknowledge data that is not on disk): every pending
 * and later append is rejected with that error.
 */
import fs from 'node:fs';
import { close, fdatasync, fsyncDir, writeAllSync } from './fsutil';
import { fileHeader, inDir, JOURNAL_MAGIC, journalName } from './layout';

export interface JournalFile {
  gen: number;
  fd: number;
  /** Bytes in the file, counting queued records. */
  size: number;
  /** Bytes actually written; the next write goes there (positional, so the fd offset is moot). */
  written: number;
  /** False until the directory has been fsynced after the file's creation. */
  dirSynced: boolean;
  /** Settles once every record queued for this file so far is written (or failed). */
  settled: Promise<void>;
}

interface Pending {
  file: JournalFile;
  record: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Creates journal `gen` with its header. Synchronous: rotation happens inside one tick. */
export function createJournalFile(dataDir: string, gen: number): JournalFile {
  const fd = fs.openSync(inDir(dataDir, journalName(gen)), 'wx');
  const header = fileHeader(JOURNAL_MAGIC, gen);
  fs.writeSync(fd, header, 0, header.length, 0);
  return {
    gen,
    fd,
    size: header.length,
    written: header.length,
    dirSynced: false,
    settled: Promise.resolve(),
  };
}

/** Opens an existing, already validated journal for appending at `size`. */
export function openJournalFile(dataDir: string, gen: number, size: number): JournalFile {
  const fd = fs.openSync(inDir(dataDir, journalName(gen)), 'r+');
  return { gen, fd, size, written: size, dirSynced: true, settled: Promise.resolve() };
}

export class JournalWriter {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly dataDir: string,
    private file: JournalFile,
    private readonly sync: boolean,
  ) {}

  get currentGen(): number {
    return this.file.gen;
  }

  append(record: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const file = this.file;
    const done = new Promise<void>((resolve, reject) => {
      this.queue.push({ file, record, resolve, reject });
    });
    file.size += record.length;
    file.settled = done.catch(() => undefined);
    // Start on a microtask so appends made in the same tick share the first write too.
    if (!this.flushing) this.flushing = Promise.resolve().then(() => this.flushLoop());
    return done;
  }

  /** Switches appends to a new journal `gen + 1`; returns the file that was current. */
  rotate(): JournalFile {
    const previous = this.file;
    this.file = createJournalFile(this.dataDir, previous.gen + 1);
    return previous;
  }

  /** Waits for `file`'s queued records, then closes it. */
  async retire(file: JournalFile): Promise<void> {
    await file.settled;
    await close(file.fd);
  }

  /** Waits for every queued record, then closes the current file. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.retire(this.file);
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.failure) {
        const taken = this.queue;
        this.queue = [];
        // Consecutive runs for the same file (there are two files only right after a rotation).
        let start = 0;
        while (start < taken.length) {
          let end = start + 1;
          while (end < taken.length && taken[end].file === taken[start].file) end++;
          await this.writeGroup(taken.slice(start, end));
          start = end;
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    if (this.failure) {
      for (const entry of group) entry.reject(this.failure);
      return;
    }
    const file = group[0].file;
    try {
      if (this.sync && !file.dirSynced) {
        await fsyncDir(this.dataDir);
        file.dirSynced = true;
      }
      const data = group.length === 1 ? group[0].record : Buffer.concat(group.map((e) => e.record));
      writeAllSync(file.fd, data, file.written);
      file.written += data.length;
      if (this.sync) await fdatasync(file.fd);
    } catch (err) {
      this.failure = new Error(
        `journal write failed, the database is read-only until restart: ${(err as Error).message}`,
      );
      for (const entry of group) entry.reject(this.failure);
      for (const entry of this.queue) entry.reject(this.failure);
      this.queue = [];
      return;
    }
    for (const entry of group) entry.resolve();
  }
}
