/**
 * Promise wrappers over raw file descriptors. The hot path (journal append) uses plain fds and the
 * callback API because FileHandle adds a measurable cost per call at thousands of syncs a second.
 */
import fs from 'node:fs';

export function writeAll(fd: number, data: Buffer, position: number | null = null): Promise<void> {
  return new Promise((resolve, reject) => {
    let offset = 0;
    const step = (): void => {
      const pos = position === null ? null : position + offset;
      fs.write(fd, data, offset, data.length - offset, pos, (err, written) => {
        if (err) return reject(err);
        offset += written;
        if (offset < data.length) step();
        else resolve();
      });
    };
    if (data.length === 0) resolve();
    else step();
  });
}

/**
 * Synchronous positional write. The journal uses it for group writes: copying a few KB into the
 * page cache is cheaper than a thread-pool round trip, and only the fdatasync has to wait.
 */
export function writeAllSync(fd: number, data: Buffer, position: number): void {
  let offset = 0;
  while (offset < data.length) {
    offset += fs.writeSync(fd, data, offset, data.length - offset, position + offset);
  }
}

export function fdatasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())),
  );
}

export function fsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));
}

export function close(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.close(fd, (err) => (err ? reject(err) : resolve())));
}

export function read(
  fd: number,
  into: Buffer,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.read(fd, into, offset, length, position, (err, bytesRead) =>
      err ? reject(err) : resolve(bytesRead),
    ),
  );
}

/** Makes renames, creations and deletions in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fd = await fs.promises.open(dir, 'r');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}

export function fsyncDirSync(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Deletes a file, ignoring one that is already gone (a crash may have half-done a cleanup). */
export function removeIfPresent(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
