/**
 * File layout of a data directory, and why a kill at any moment leaves a recoverable state.
 *
 *   engine.lock                      pid (+ process start time) of the process that has it open
 *   journal-<G>.log                  append-only journal of generation G (16-byte header, then records)
 *   snapshot-<G>.snap                full image of every collection as of the START of journal G,
 *                                    i.e. the effect of every batch in journals < G
 *   snapshot-<G>.snap.tmp            a snapshot being written (never read by recovery)
 *
 * <G> is a zero-padded decimal generation number; generation 1 is the first journal. A record (in
 * both file kinds) is [u32 LE length][u32 LE crc32 of length+payload][payload].
 *
 * The state of the data is: the newest complete snapshot S (generation B, or nothing and B = 1),
 * then the journals B, B+1, … replayed in order. Taking a snapshot while journal K is current:
 *   1. capture the image (in memory; it contains exactly the batches appended to journals <= K);
 *   2. create journal-(K+1) with its header; from now on appends go there. Its directory entry is
 *      fsynced before the first append to it is acknowledged (see JournalWriter);
 *   3. write snapshot-(K+1).snap.tmp, fsync it, rename it to snapshot-(K+1).snap, fsync the dir;
 *   4. delete journals <= K and snapshots <= K (they are superseded), and stray .tmp files.
 *
 * Crash points:
 *   - during 1-2: journal-(K+1) is missing, empty or has a torn header. Nothing acknowledged lives
 *     in it (its first append waits for the directory fsync), so recovery replays the old snapshot +
 *     journals B..K and treats a torn journal-(K+1) as empty.
 *   - during 3 before the rename: only a .tmp exists; recovery ignores and deletes it. The old
 *     snapshot and every journal >= B are still there (nothing is deleted before step 4).
 *   - after the rename (even if the dir fsync did not complete): either the rename is visible, and
 *     snapshot-(K+1) + journals >= K+1 is complete, or it is not, and the old set is still intact.
 *   - during 4: some superseded files remain; recovery picks the newest complete snapshot, ignores
 *     and deletes everything older. A snapshot is only "complete" with its end record and matching
 *     counts, so a damaged one is never mistaken for a good one.
 *   - during an append: the last record of the last journal may be torn; the CRC and length check
 *     find it, recovery truncates the file there (that batch was never acknowledged).
 * Journals are written strictly in order (the writer finishes journal K's pending batches before it
 * writes journal K+1), so a torn or corrupt record is only ever followed by unacknowledged data;
 * recovery therefore cuts at the first bad record and sets later journals aside.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'engine.lock';
export const JOURNAL_MAGIC = 'QUIRE-J1';
export const SNAPSHOT_MAGIC = 'QUIRE-S1';
/** magic (8 bytes) + generation (u64 LE). */
export const FILE_HEADER_BYTES = 16;

const GEN_DIGITS = 12;
const JOURNAL_RE = /^journal-(\d+)\.log$/;
const SNAPSHOT_RE = /^snapshot-(\d+)\.snap$/;
const TEMP_RE = /^snapshot-\d+\.snap\.tmp$/;

const pad = (gen: number): string => String(gen).padStart(GEN_DIGITS, '0');

export const journalName = (gen: number): string => `journal-${pad(gen)}.log`;
export const snapshotName = (gen: number): string => `snapshot-${pad(gen)}.snap`;
export const snapshotTempName = (gen: number): string => `${snapshotName(gen)}.tmp`;

/** What a directory listing holds, generations sorted ascending. */
export interface DirListing {
  journals: number[];
  snapshots: number[];
  temps: string[];
}

export function listDataDir(dataDir: string): DirListing {
  const listing: DirListing = { journals: [], snapshots: [], temps: [] };
  for (const name of readdirSync(dataDir)) {
    let match = JOURNAL_RE.exec(name);
    if (match) {
      listing.journals.push(Number(match[1]));
      continue;
    }
    match = SNAPSHOT_RE.exec(name);
    if (match) {
      listing.snapshots.push(Number(match[1]));
      continue;
    }
    if (TEMP_RE.test(name)) listing.temps.push(name);
  }
  listing.journals.sort((a, b) => a - b);
  listing.snapshots.sort((a, b) => a - b);
  return listing;
}

export function fileHeader(magic: string, gen: number): Buffer {
  const header = Buffer.alloc(FILE_HEADER_BYTES);
  header.write(magic, 0, 8, 'latin1');
  header.writeBigUInt64LE(BigInt(gen), 8);
  return header;
}

/** True when `bytes` is the header `fileHeader(magic, gen)` would write. */
export function isFileHeader(bytes: Buffer, magic: string, gen: number): boolean {
  return (
    bytes.length >= FILE_HEADER_BYTES &&
    bytes.toString('latin1', 0, 8) === magic &&
    bytes.readBigUInt64LE(8) === BigInt(gen)
  );
}

export const inDir = (dataDir: string, name: string): string => path.join(dataDir, name);
