/**
 * Where uploaded bytes live. The attachments code only speaks this interface, so a
 * S3-compatible implementation can replace the local disk without touching upload or download
 * rules. Keys are made by the server (`newStorageKey`), never from a client's file name.
 */
import type { Readable } from 'node:stream';

export interface StoredFile {
  size: number;
  /** The bytes; the caller must consume or destroy it. */
  stream: Readable;
}

export interface FileStorage {
  /** A local folder where uploads are written while they are checked (same disk as `put`'s source). */
  stagingDir(): Promise<string>;
  /** Moves a checked staging file into the storage under `key`; the staging file is gone after. */
  putFile(key: string, stagedPath: string): Promise<void>;
  /** The stored file, or null when it is not there. */
  open(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  remove(key: string): Promise<void>;
  /** Number of stored files (tests and diagnostics; not for request paths). */
  count(): Promise<number>;
  /** The key for a new upload, when the storage chooses (else `newStorageKey()`). */
  newKey?(): Promise<string>;
}
