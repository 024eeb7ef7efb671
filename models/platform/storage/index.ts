/**
 * The process's file storage. The process entry configures it at start (the local disk under
 * DATA_DIR today; an S3-compatible implementation of FileStorage can be plugged in the same way).
 */
import path from 'node:path';
import { perContext } from '../context';
import { LocalFileStorage } from './local';
import type { FileStorage } from './types';

export type { FileStorage, StoredFile } from './types';
export { newStorageKey } from './keys';
export { LocalFileStorage } from './local';
export { S3FileStorage, type S3Settings } from './s3';
export { SwitchingFileStorage, type CloudResolver } from './switching';

const configured = perContext((): { storage: FileStorage | null } => ({ storage: null }));

export function configureFileStorage(storage: FileStorage | null): void {
  configured().storage = storage;
}

/** The configured storage; throws when the instance has none (a start-up bug, not a user error). */
export function fileStorage(): FileStorage {
  const { storage } = configured();
  if (!storage) throw new Error('file storage is not configured');
  return storage;
}

/** The local storage of a data directory: `<dataDir>/files`. */
export function localStorageFor(dataDir: string): LocalFileStorage {
  return new LocalFileStorage(path.join(dataDir, 'files'));
}
