/**
 * Cloud storage against a real local S3-compatible server (s3rver, started by this file):
 * switched on in the back office, new uploads are stored in the bucket (and served from it);
 * files uploaded before keep working from the local disk; switched off again, new uploads go to
 * the disk and the cloud files stay readable; deleting a cloud file removes the object.
 */
import { configureAddressPolicy } from '../../models/platform';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas';
import { BROWSER_UA } from '../helpers/client';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { postMultipart, samples, signOf } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const BUCKET = 'quire-files';
let s3: S3rver;
let s3Dir: string;
let endpoint: string;
let server: TestServer;
let admin: TestUser;
let owner: TestUser;
let pageId: number;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  // s3rver listens on loopback: the address policy must name it (ALLOW_PRIVATE_HOSTS).
  server = await startTestServer({
    env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
  });
  admin = await makeUser({ admin: true });
  owner = await makeUser();
  const { item_id } = await makeItem(owner);
  pageId = (await makePage(owner, item_id)).page_id;
});

afterAll(async () => {
  await server?.stop();
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

/** s3rver checks signatures with its default credentials. */
const OSS = {
  oss_type: 's3_storage',
  endpoint: '',
  region: 'us-east-1',
  bucket: BUCKET,
  key: 'S3RVER',
  secret: 'S3RVER',
  protocol: 'http',
};

async function cloud(open: 0 | 1) {
  await server.api
    .withToken(admin.user_token)
    .ok(
      'adminSetting/saveConfig',
      { oss_open: open, oss_setting: { ...OSS, endpoint } },
      { json: true },
    );
}

async function upload(content: Buffer): Promise<UploadFileDoc> {
  const answer = await postMultipart(server.url, 'page/upload', [
    { name: 'user_token', value: owner.user_token },
    { name: 'page_id', value: String(pageId) },
    { name: 'file', filename: 'notes.pdf', content },
  ]);
  expect(answer.body.success).toBe(1);
  return (await UploadFile.findOne({ sign: signOf(answer.body.url) }).lean<UploadFileDoc>())!;
}

async function visit(sign: string): Promise<Buffer> {
  const url = new URL('/server/', server.url);
  url.searchParams.set('s', '/api/attachment/visitFile');
  url.searchParams.set('sign', sign);
  const response = await fetch(url, {
    headers: { 'user-agent': BROWSER_UA, 'x-api-token': owner.user_token },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function objectExists(key: string): Promise<boolean> {
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

describe('S3-compatible cloud storage', () => {
  test('on: new uploads go to the bucket; earlier local files and, after off, cloud files keep working', async () => {
    const localBytes = samples.pdf();
    const local = await upload(localBytes);
    expect(local.storage_key).toMatch(/^\d{4}\/\d\d\/[0-9a-f]{32}$/);

    await cloud(1);
    const cloudBytes = samples.pdf();
    const inCloud = await upload(cloudBytes);
    expect(inCloud.storage_key).toMatch(/^s3\/\d{4}\/\d\d\/[0-9a-f]{32}$/);
    expect(await objectExists(inCloud.storage_key.slice(3))).toBe(true);
    expect((await visit(inCloud.sign)).equals(cloudBytes)).toBe(true);
    expect((await visit(local.sign)).equals(localBytes)).toBe(true);

    await cloud(0);
    const after = await upload(samples.pdf());
    expect(after.storage_key.startsWith('s3/')).toBe(false);
    expect((await visit(inCloud.sign)).equals(cloudBytes)).toBe(true);

    await server.api
      .withToken(owner.user_token)
      .ok('attachment/deleteMyAttachment', { file_id: inCloud.file_id });
    expect(await objectExists(inCloud.storage_key.slice(3))).toBe(false);
  });

  test('an endpoint on loopback not on the allow-list is not connected to: the upload is refused, nothing stored', async () => {
    await cloud(1);
    const before = await UploadFile.countDocuments();
    configureAddressPolicy([]);
    try {
      const answer = await postMultipart(server.url, 'page/upload', [
        { name: 'user_token', value: owner.user_token },
        { name: 'page_id', value: String(pageId) },
        { name: 'file', filename: 'notes.pdf', content: samples.pdf() },
      ]);
      expect(answer.body.success).not.toBe(1);
      expect(JSON.stringify(answer.body)).toContain(
        'The S3 storage does not connect to 127.0.0.1: a loopback address',
      );
    } finally {
      configureAddressPolicy(['127.0.0.1']);
      await cloud(0);
    }
    expect(await UploadFile.countDocuments()).toBe(before);
  });

  test('switching on without a bucket is refused and changes nothing', async () => {
    await cloud(0);
    const answer = await server.api
      .withToken(admin.user_token)
      .fail(
        'adminSetting/saveConfig',
        { oss_open: 1, oss_setting: { ...OSS, bucket: '' } },
        { json: true },
      );
    expect(answer.error_code).toBe(10101);
    const config = await server.api
      .withToken(admin.user_token)
      .ok<{ oss_open: string }>('adminSetting/loadConfig');
    expect(config.oss_open).toBe('0');
  });
});
