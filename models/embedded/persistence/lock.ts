/**
 * The data-directory lock: a file holding the owner's pid, its start time and a random nonce.
 *
 * Node has no flock(), so liveness is judged from the pid: a lock whose pid is not running (or is
 * running but started at a different time, i.e. the pid was reused) is stale and taken over. Within
 * one process a registry refuses a second open, and also tells a stale lock that merely carries our
 * own pid (a container restarted with the same pid) from a live one.
 *
 * Takeover moves the stale file aside with rename (atomic), re-reads what it moved, and only then
 * creates the new lock with O_EXCL, so two processes racing for a stale lock cannot both win.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { inDir, LOCK_FILE } from './layout';

export class EngineLockedError extends Error {
  readonly holderPid: number;
  constructor(dataDir: string, holderPid: number) {
    super(`data directory ${dataDir} is in use by process ${holderPid}`);
    this.name = 'EngineLockedError';
    this.holderPid = holderPid;
  }
}

interface LockContent {
  pid: number;
  startTime: string | null;
  nonce: string;
}

/** Directories this process holds, by resolved path. */
const heldHere = new Set<string>();

/** Start time of a process in clock ticks since boot (Linux), or null where /proc is missing. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 22; the command name (field 2) may contain spaces, so count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: LockContent): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.startTime === null) return true;
  const startTime = processStartTime(holder.pid);
  return startTime === null || startTime === holder.startTime;
}

function parseLock(text: string): LockContent | null {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0)
      return null;
    return { pid: value.pid, startTime: value.startTime ?? null, nonce: String(value.nonce ?? '') };
  } catch {
    return null;
  }
}

function readLock(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export interface DirLock {
  release(): void;
}

/** How long an unreadable lock file is given to be a lock still being written, not a torn one. */
const UNREADABLE_GRACE_MS = 2000;

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Takes the lock of `dataDir` (an absolute path) or throws EngineLockedError. */
export async function acquireLock(dataDir: string): Promise<DirLock> {
  const file = inDir(dataDir, LOCK_FILE);
  // The registry key survives symlinks and relative spellings of the same directory.
  const key = fs.realpathSync(dataDir);
  const mine: LockContent = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    nonce: randomBytes(8).toString('hex'),
  };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 50; attempt++) {
    // Checked on every turn: another open in this process may have won while we waited.
    if (heldHere.has(key)) throw new EngineLockedError(dataDir, process.pid);
    try {
      const fd = fs.openSync(file, 'wx');
      try {
        fs.writeSync(fd, text);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      heldHere.add(key);
      return { release: () => releaseLock(key, file, text) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const existing = readLock(file);
    if (existing === null) continue; // released meanwhile
    const holder = parseLock(existing);
    if (!holder && ageMs(file) < UNREADABLE_GRACE_MS) {
      // Another process may be between creating the file and writing its pid: give it time.
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    // An old unreadable lock is one torn by a crash while it was being written.
    if (holder && isAlive(holder) && holder.pid !== process.pid)
      throw new EngineLockedError(dataDir, holder.pid);
    moveStaleLockAside(file, existing);
  }
  throw new Error(`could not take the lock of ${dataDir}: it keeps changing`);
}

function moveStaleLockAside(file: string, staleText: string): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it
    throw err;
  }
  if (readLock(aside) === staleText) {
    fs.unlinkSync(aside);
    return;
  }
  // We moved a fresh lock another process created after our read: put it back.
  try {
    fs.linkSync(aside, file);
  } catch {
    // A third process created a lock in between; it holds the directory now.
  }
  fs.unlinkSync(aside);
}

function releaseLock(key: string, file: string, text: string): void {
  heldHere.delete(key);
  // Only remove the file if it is still ours (never someone else's lock after a takeover).
  if (readLock(file) === text) fs.unlinkSync(file);
}
