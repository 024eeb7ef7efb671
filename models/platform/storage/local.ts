/**
 * The local-disk file storage: `<DATA_DIR>/files/<YYYY>/<MM>/<32 hex>`. Names carry no
 * extension and no client text, so nothing stored can be reached or executed by a name an
 * uploader chose. Uploads are staged in `<root>/.incoming` (same file system, so committing is a
 * rename) and that folder is emptied of leftovers from a crash at start.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertStorageKey } from './keys';
import type { FileStorage, StoredFile } from './types';

const STAGING = '.incoming';
/** A staging file older than this belongs to no running upload. */
const STALE_STAGING_MS = 6 * 3600 * 1000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

export class LocalFileStorage implements FileStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async stagingDir(): Promise<string> {
    const dir = path.join(this.root, STAGING);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  async putFile(key: string, stagedPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      await fs.rename(stagedPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException)?.code !== 'EXDEV') throw error;
      await fs.copyFile(stagedPath, target, fs.constants.COPYFILE_EXCL);
      await fs.rm(stagedPath, { force: true });
    }
    await fs.chmod(target, 0o600);
  }

  async open(key: string): Promise<StoredFile | null> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      // The stream owns the handle from here and closes it when done or destroyed.
      return { size: stat.size, stream: handle.createReadStream({ autoClose: true }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async count(): Promise<number> {
    let total = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) await walk(path.join(dir, entry.name));
        else total += 1;
      }
    };
    await walk(this.root);
    return total;
  }

  /** Deletes staging files left behind by a process that stopped mid-upload. */
  async sweepStaging(now = Date.now()): Promise<void> {
    const dir = await this.stagingDir();
    for (const name of await fs.readdir(dir)) {
      const file = path.join(dir, name);
      try {
        const stat = await fs.stat(file);
        if (now - stat.mtimeMs > STALE_STAGING_MS) await fs.rm(file, { force: true });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }
}
