/**
 * Recovery: find the newest complete snapshot, replay the journals after it, cut at the first torn
 * or corrupt record, and tidy up what a crash may have left half done (see layout.ts for why each
 * leftover is safe to ignore).
 */
import fs from 'node:fs';
import type { DeserializeOptions } from 'bson';
import type { CollectionImage, Mutation } from '../types';
import { decodeBatch } from './codec';
import { fsyncDirSync, removeIfPresent } from './fsutil';
import { RecordReader } from './framing';
import {
  FILE_HEADER_BYTES,
  fileHeader,
  inDir,
  isFileHeader,
  JOURNAL_MAGIC,
  journalName,
  listDataDir,
  snapshotName,
} from './layout';
import { DamagedSnapshotError, readSnapshot } from './snapshot';

export interface RecoveryResult {
  images: CollectionImage[];
  batches: Mutation[][];
  /** Generation of the snapshot recovered from (1 when there is none). */
  baseGen: number;
  /** The journal appends continue in, and its valid length. */
  currentGen: number;
  currentSize: number;
  /** Bytes of journal not covered by the snapshot. */
  journalBytes: number;
  /** What recovery had to repair, for the engine's log. */
  repairs: string[];
}

export async function recover(
  dataDir: string,
  options: DeserializeOptions,
): Promise<RecoveryResult> {
  const listing = listDataDir(dataDir);
  const repairs: string[] = [];
  let dirChanged = false;

  // 1. The newest snapshot that loads completely.
  let baseGen = 1;
  let images: CollectionImage[] = [];
  let damagedAbove = 0;
  for (const gen of [...listing.snapshots].reverse()) {
    try {
      images = await readSnapshot(dataDir, gen, options);
      baseGen = gen;
      break;
    } catch (err) {
      if (!(err instanceof DamagedSnapshotError)) throw err;
      damagedAbove = Math.max(damagedAbove, gen);
      const aside = `${snapshotName(gen)}.damaged-${Date.now()}`;
      fs.renameSync(inDir(dataDir, snapshotName(gen)), inDir(dataDir, aside));
      dirChanged = true;
      repairs.push(`${err.message}; moved aside as ${aside}`);
    }
  }

  // 2. The journals after it must form an unbroken chain starting at its generation.
  const chain = listing.journals.filter((gen) => gen >= baseGen);
  chain.forEach((gen, i) => {
    if (gen !== baseGen + i) {
      const why = damagedAbove
        ? `snapshot ${damagedAbove} is damaged and the journals needed to rebuild without it were compacted away`
        : `journal ${baseGen + i} is missing`;
      throw new Error(
        `cannot recover ${dataDir}: ${why}; restore the data directory from a backup`,
      );
    }
  });

  // 3. Replay, cutting at the first bad record.
  const batches: Mutation[][] = [];
  let journalBytes = 0;
  let currentGen = baseGen;
  let currentSize = FILE_HEADER_BYTES;
  for (let i = 0; i < chain.length; i++) {
    const gen = chain[i];
    const replay = await replayJournal(dataDir, gen, options, batches);
    journalBytes += replay.validSize;
    currentGen = gen;
    currentSize = replay.validSize;
    if (replay.cut) {
      repairs.push(`journal ${gen}: ${replay.cut}; truncated to ${replay.validSize} bytes`);
      for (const later of chain.slice(i + 1)) {
        const aside = `${journalName(later)}.discarded-${Date.now()}`;
        fs.renameSync(inDir(dataDir, journalName(later)), inDir(dataDir, aside));
        repairs.push(`journal ${later} follows a damaged record; moved aside as ${aside}`);
      }
      dirChanged = true;
      break;
    }
  }
  if (chain.length === 0) {
    // Fresh directory, or the snapshot's journal never made it to disk: start it now.
    const fd = fs.openSync(inDir(dataDir, journalName(baseGen)), 'w');
    fs.writeSync(fd, fileHeader(JOURNAL_MAGIC, baseGen));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    dirChanged = true;
  }

  // 4. Remove what a finished snapshot superseded and what an unfinished one left behind.
  for (const gen of listing.journals) {
    if (gen < baseGen) removeIfPresent(inDir(dataDir, journalName(gen)));
  }
  for (const gen of listing.snapshots) {
    if (gen < baseGen) removeIfPresent(inDir(dataDir, snapshotName(gen)));
  }
  for (const name of listing.temps) removeIfPresent(inDir(dataDir, name));
  if (dirChanged) fsyncDirSync(dataDir);

  return { images, batches, baseGen, currentGen, currentSize, journalBytes, repairs };
}

interface JournalReplay {
  validSize: number;
  /** Why the journal was cut, if it was. */
  cut: string | null;
}

/** Appends the journal's batches to `batches`; truncates it at the first bad record. */
async function replayJournal(
  dataDir: string,
  gen: number,
  options: DeserializeOptions,
  batches: Mutation[][],
): Promise<JournalReplay> {
  const file = inDir(dataDir, journalName(gen));
  const fd = fs.openSync(file, 'r+');
  try {
    const size = fs.fstatSync(fd).size;
    const header = Buffer.alloc(FILE_HEADER_BYTES);
    const headerBytes = fs.readSync(fd, header, 0, FILE_HEADER_BYTES, 0);
    if (headerBytes < FILE_HEADER_BYTES || !isFileHeader(header, JOURNAL_MAGIC, gen)) {
      // Torn while being created (nothing in it was ever acknowledged): start it afresh.
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, fileHeader(JOURNAL_MAGIC, gen), 0, FILE_HEADER_BYTES, 0);
      fs.fsyncSync(fd);
      return { validSize: FILE_HEADER_BYTES, cut: size === 0 ? null : 'bad file header' };
    }
    const reader = new RecordReader(fd, FILE_HEADER_BYTES, size);
    for (;;) {
      const result = await reader.next();
      if (result.kind === 'end') return { validSize: size, cut: null };
      let cut: { at: number; reason: string } | null = null;
      if (result.kind === 'bad') {
        cut = result;
      } else {
        try {
          batches.push(decodeBatch(result.payload, options));
        } catch (err) {
          cut = { at: result.start, reason: `undecodable batch (${(err as Error).message})` };
        }
      }
      if (cut) {
        fs.ftruncateSync(fd, cut.at);
        fs.fsyncSync(fd);
        return { validSize: cut.at, cut: `${cut.reason} at offset ${cut.at}` };
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
