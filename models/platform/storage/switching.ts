/**
 * The process's storage when cloud storage can be switched on and off at run time: new uploads
 * go to the cloud while it is on, else to the local disk, and every file stays readable where it
 * was written. A cloud file's key carries the `s3/` prefix (the object itself is named without
 * it), so switching never moves or loses a file.
 */
import { newStorageKey } from './keys';
import type { LocalFileStorage } from './local';
import type { S3FileStorage } from './s3';
import type { FileStorage, StoredFile } from './types';

const CLOUD_PREFIX = 's3/';

export interface CloudResolver {
  /** The storage new uploads go to, or null while cloud storage is off. */
  forUploads(): Promise<S3FileStorage | null>;
  /** The configured cloud storage, on or off (reading and deleting older cloud files). */
  configured(): Promise<S3FileStorage | null>;
}

export class SwitchingFileStorage implements FileStorage {
  constructor(
    readonly local: LocalFileStorage,
    private readonly cloud: CloudResolver,
  ) {}

  stagingDir(): Promise<string> {
    return this.local.stagingDir();
  }

  async newKey(): Promise<string> {
    return (await this.cloud.forUploads()) ? `${CLOUD_PREFIX}${newStorageKey()}` : newStorageKey();
  }

  private async cloudFor(key: string): Promise<S3FileStorage> {
    const cloud = await this.cloud.configured();
    if (!cloud) throw new Error(`cloud storage is not configured for ${key}`);
    return cloud;
  }

  async putFile(key: string, stagedPath: string): Promise<void> {
    if (!key.startsWith(CLOUD_PREFIX)) return this.local.putFile(key, stagedPath);
    const bare = key.slice(CLOUD_PREFIX.length);
    return (await this.cloudFor(key)).putFile(bare, stagedPath);
  }

  async open(key: string): Promise<StoredFile | null> {
    if (!key.startsWith(CLOUD_PREFIX)) return this.local.open(key);
    const cloud = await this.cloud.configured();
    return cloud ? cloud.open(key.slice(CLOUD_PREFIX.length)) : null;
  }

  async remove(key: string): Promise<void> {
    if (!key.startsWith(CLOUD_PREFIX)) return this.local.remove(key);
    await (await this.cloudFor(key)).remove(key.slice(CLOUD_PREFIX.length));
  }

  /** Local files only (counting a bucket is a network call; see S3FileStorage.count). */
  count(): Promise<number> {
    return this.local.count();
  }
}
