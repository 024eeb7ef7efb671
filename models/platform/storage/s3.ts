/**
 * An S3-compatible file storage (the official AWS SDK): AWS S3, MinIO, Ceph, and the
 * S3-compatible APIs of Aliyun OSS, Tencent COS and Qiniu. Objects are named by the same
 * server-made keys as on the local disk; uploads are staged on the local disk (checked there),
 * then sent. Path-style addressing, which every S3-compatible server understands.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertStorageKey } from './keys';
import type { FileStorage, StoredFile } from './types';

export interface S3Settings {
  /** e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;

  constructor(
    readonly settings: S3Settings,
    /** Where uploads are staged while they are checked (the local storage). */
    private readonly staging: Pick<FileStorage, 'stagingDir'>,
  ) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region || 'us-east-1',
      forcePathStyle: true,
      // Newer SDKs add CRC trailers (aws-chunked uploads) by default, which many S3-compatible
      // servers store verbatim or refuse: checksums only where the operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
      },
    });
  }

  stagingDir(): Promise<string> {
    return this.staging.stagingDir();
  }

  async putFile(key: string, stagedPath: string): Promise<void> {
    assertStorageKey(key);
    const { size } = await fs.promises.stat(stagedPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: fs.createReadStream(stagedPath),
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
    await fs.promises.rm(stagedPath, { force: true });
  }

  async open(key: string): Promise<StoredFile | null> {
    assertStorageKey(key);
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
      );
      if (!(object.Body instanceof Readable)) return null;
      return { size: Number(object.ContentLength ?? 0), stream: object.Body };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string })?.name === 'NoSuchKey')
        return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async count(): Promise<number> {
    let total = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token }),
      );
      total += page.KeyCount ?? 0;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return total;
  }

  close(): void {
    this.client.destroy();
  }
}
