/**
 * adminUpdate/checkUpdate over real HTTP against a real local release feed: the newest version is
 * reported with its link; when the feed cannot be reached an admin gets one plain sentence;
 * visitors and users are answered without a login as ShowDoc does (issue 32 #2), from the last
 * feed answer, and cannot make the server call out again at will.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureAddressPolicy } from '../../models/platform';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let feed: http.Server;
let feedBody = '';
let feedHits = 0;
/** When set, the feed answers with a redirect there. */
let feedRedirect = '';
let server: TestServer;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  feed = http.createServer((_req, res) => {
    feedHits += 1;
    if (feedRedirect) {
      res.writeHead(302, { location: feedRedirect });
      res.end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(feedBody);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const { port } = feed.address() as AddressInfo;
  server = await startTestServer({
    // The feed listens on loopback: the address policy must name it (ALLOW_PRIVATE_HOSTS).
    env: {
      LOG_LEVEL: 'silent',
      UPDATE_FEED_URL: `http://127.0.0.1:${port}/latest`,
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    },
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

test('visitors and users are answered without a login; they ask the feed at most once an hour', async () => {
  feedBody = JSON.stringify({ version: '98.0.0', url: 'https://example.com/98' });
  const { version } = await server.api.ok<{ version: string }>('common/version');
  const before = feedHits;
  await server.api.withToken(admin.user_token).ok('adminUpdate/checkUpdate');
  expect(feedHits).toBe(before + 1);
  feedBody = JSON.stringify({ version: '99.9.9' });
  // ShowDoc's back office sends it as a GET without a token.
  const anonymous = await server.api.call('adminUpdate/checkUpdate', {}, { method: 'GET' });
  expect(anonymous.body).toEqual({
    error_code: 0,
    data: { version, new_version: 'v98.0.0', url: 'https://example.com/98' },
  });
  for (const api of [server.api, server.api.withToken(user.user_token)])
    expect(await api.ok('adminUpdate/checkUpdate')).toEqual({
      version,
      new_version: 'v98.0.0',
      url: 'https://example.com/98',
    });
  expect(feedHits).toBe(before + 1);
  // Nothing else of the update screen opens up.
  for (const action of ['adminUpdate/download', 'adminUpdate/updateFiles'])
    expect((await server.api.fail(action)).error_code).toBe(10102);
});

test('the address policy: a loopback feed not on the allow-list, or a redirect to a metadata address, is refused unasked', async () => {
  feedBody = JSON.stringify({ version: '99.1.0' });
  configureAddressPolicy([]);
  const before = feedHits;
  try {
    const refused = await server.api.withToken(admin.user_token).fail('adminUpdate/checkUpdate');
    expect(refused).toMatchObject({
      error_code: 10403,
      error_message: 'Quire does not connect to 127.0.0.1: a loopback address',
    });
    expect(feedHits).toBe(before);
  } finally {
    configureAddressPolicy(['127.0.0.1']);
  }
  feedRedirect = 'http://169.254.169.254/latest/meta-data/';
  try {
    const redirected = await server.api.withToken(admin.user_token).fail('adminUpdate/checkUpdate');
    expect(redirected.error_code).toBe(10403);
    expect(redirected.error_message).toMatch(/169\.254\.169\.254: a link-local address/);
  } finally {
    feedRedirect = '';
  }
  expect(
    (
      await server.api
        .withToken(admin.user_token)
        .ok<{ new_version: string }>('adminUpdate/checkUpdate')
    ).new_version,
  ).toBe('v99.1.0');
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
