/**
 * An S3-compatible file storage (the official AWS SDK): AWS S3, MinIO, Ceph, and the
 * S3-compatible APIs of Aliyun OSS, Tencent COS and Qiniu. Objects are named by the same
 * server-made keys as on the local disk; uploads are staged on the local disk (checked there),
 * then sent. Path-style addressing, which every S3-compatible server understands.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { addressPolicy, checkedLookup, checkLiteralHost } from '../addressPolicy';
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

type Sdk = typeof S3Sdk;

/** ALLOW_PRIVATE_HOSTS opens a MinIO on the LAN or on this machine. */
const s3Policy = () => addressPolicy('The S3 storage');

/** The SDK (several MB in every process) loads on the first file operation, not at start. */
async function connect(settings: S3Settings): Promise<{ sdk: Sdk; client: S3Client }> {
  // A named endpoint passes the address policy on every connection the agents open (and they
  // connect to the address that was checked); an address literal is checked by `sdk()`.
  const lookup = checkedLookup(s3Policy);
  const sdk = await import('@aws-sdk/client-s3');
  return {
    sdk,
    client: new sdk.S3Client({
      endpoint: settings.endpoint,
      region: settings.region || 'us-east-1',
      forcePathStyle: true,
      requestHandler: {
        httpAgent: new http.Agent({ keepAlive: true, lookup }),
        httpsAgent: new https.Agent({ keepAlive: true, lookup }),
      },
      // Newer SDKs add CRC trailers (aws-chunked uploads) by default, which many S3-compatible
      // servers store verbatim or refuse: checksums only where the operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
      },
    }),
  };
}

export class S3FileStorage implements FileStorage {
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(
    readonly settings: S3Settings,
    /** Where uploads are staged while they are checked (the local storage). */
    private readonly staging: Pick<FileStorage, 'stagingDir'>,
  ) {}

  private async sdk(): Promise<{ sdk: Sdk; client: S3Client }> {
    if (this.settings.endpoint)
      checkLiteralHost(s3Policy(), new URL(this.settings.endpoint).hostname);
    return (this.connection ??= connect(this.settings));
  }

  stagingDir(): Promise<string> {
    return this.staging.stagingDir();
  }

  async putFile(key: string, stagedPath: string): Promise<void> {
    assertStorageKey(key);
    const { size } = await fs.promises.stat(stagedPath);
    const { sdk, client } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({
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
    const { sdk, client } = await this.sdk();
    try {
      const object = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
      );
      if (!(object.Body instanceof Readable)) return null;
      return { size: Number(object.ContentLength ?? 0), stream: object.Body };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { name?: string })?.name === 'NoSuchKey')
        return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    assertStorageKey(key);
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async count(): Promise<number> {
    let total = 0;
    let token: string | undefined;
    const { sdk, client } = await this.sdk();
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token }),
      );
      total += page.KeyCount ?? 0;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return total;
  }

  close(): void {
    void this.connection?.then(
      ({ client }) => client.destroy(),
      () => {},
    );
  }
}
