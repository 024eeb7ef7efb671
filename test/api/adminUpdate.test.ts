/**
 * adminUpdate/checkUpdate over real HTTP against a real local release feed: the newest version is
 * reported with its link; when the feed cannot be reached the answer is one plain sentence; only
 * admins may make the server call out.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let feed: http.Server;
let feedBody = '';
let feedHits = 0;
let server: TestServer;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  feed = http.createServer((_req, res) => {
    feedHits += 1;
    res.setHeader('content-type', 'application/json');
    res.end(feedBody);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const { port } = feed.address() as AddressInfo;
  server = await startTestServer({
    env: { LOG_LEVEL: 'silent', UPDATE_FEED_URL: `http://127.0.0.1:${port}/latest` },
  });
  admin = await makeUser({ admin: true });
  user = await makeUser();
});

afterAll(async () => {
  await server.stop();
  if (feed.listening) await new Promise((resolve) => feed.close(resolve));
});

test('a newer version in an npm-style feed is reported with the running version', async () => {
  feedBody = JSON.stringify({ name: 'quire', version: '99.1.0', url: 'https://example.com/r' });
  const { version } = await server.api.ok<{ version: string }>('common/version');
  const info = await server.api
    .withToken(admin.user_token)
    .ok<Record<string, string>>('adminUpdate/checkUpdate');
  expect(info).toEqual({ version, new_version: 'v99.1.0', url: 'https://example.com/r' });
});

test('a GitHub-style release is read from tag_name and html_url; a javascript: link is dropped', async () => {
  feedBody = JSON.stringify({ tag_name: 'v0.0.1', html_url: 'javascript:alert(1)' });
  const info = await server.api
    .withToken(admin.user_token)
    .ok<Record<string, string>>('adminUpdate/checkUpdate');
  expect(info).toMatchObject({ new_version: 'v0.0.1', url: '' });
});

test('ordinary users and visitors are refused without the feed being asked', async () => {
  const before = feedHits;
  expect(
    (await server.api.withToken(user.user_token).fail('adminUpdate/checkUpdate')).error_code,
  ).toBe(10103);
  expect((await server.api.fail('adminUpdate/checkUpdate')).error_code).toBe(10102);
  expect(feedHits).toBe(before);
});

test('a feed answering garbage, then no feed at all: one sentence, code 10101', async () => {
  feedBody = '<html>not json';
  const garbled = await server.api.withToken(admin.user_token).fail('adminUpdate/checkUpdate');
  expect(garbled.error_code).toBe(10101);
  expect(garbled.error_message).toBe('The release feed cannot be reached; nothing was changed');
  await new Promise((resolve) => feed.close(resolve));
  const offline = await server.api.withToken(admin.user_token).fail('adminUpdate/checkUpdate');
  expect(offline).toMatchObject({ error_code: 10101, error_message: garbled.error_message });
  expect(offline.error_message).not.toContain('\n');
});
