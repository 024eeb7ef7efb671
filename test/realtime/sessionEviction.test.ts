/**
 * Live sessions end with the login (issue #16): logout and a password change close the user's
 * Socket.IO connections and collaborative-editing connections at once (`session-ended`), not at
 * their next request; one user cannot hold more than MAX_SOCKETS_PER_USER sockets; `watch` is
 * rate-limited per user.
 */
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { MAX_SOCKETS_PER_USER } from '../../realtime/auth';
import { closeAllCollabClients, openSynced } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { closeAllSockets, connectClient, refusalOf } from '../helpers/sockets';
import { makeUser } from '../helpers/users';
import { UserToken } from '../../models/accounts/schemas';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
});
afterEach(() => {
  closeAllSockets();
  closeAllCollabClients();
});
afterAll(async () => {
  closeAllSockets();
  closeAllCollabClients();
  await server?.stop();
});

async function sessionOf() {
  const user = await makeUser();
  const { item_id } = await makeItem(user);
  const page = await makePage(user, item_id);
  const socket = await connectClient(server.url, { user_token: user.user_token });
  expect(await socket.watch({ page_id: page.page_id })).toMatchObject({ ok: true });
  const collab = await openSynced(server.url, page.page_id, user.user_token);
  return { user, socket, collab };
}

test('logout closes the socket and the collaborative session at once', async () => {
  const { user, socket, collab } = await sessionOf();
  await server.api.withToken(user.user_token).ok('user/logout');
  await eventually(() => expect(socket.socket.connected).toBe(false));
  await eventually(() => expect(collab.closes).toContain('session-ended'));
});

test('a password change closes them too', async () => {
  const { user, socket, collab } = await sessionOf();
  await server.api
    .withToken(user.user_token)
    .ok('user/resetPassword', { password: user.password, new_password: 'brand-new-pass-1' });
  await eventually(() => expect(socket.socket.connected).toBe(false));
  await eventually(() => expect(collab.closes).toContain('session-ended'));
});

test(`one user holds at most ${MAX_SOCKETS_PER_USER} sockets; others can still connect`, async () => {
  const user = await makeUser();
  for (let i = 0; i < MAX_SOCKETS_PER_USER; i++)
    await connectClient(server.url, { user_token: user.user_token });
  expect(await refusalOf(server.url, { user_token: user.user_token })).toEqual({
    error_code: 10100,
  });
  const other = await makeUser();
  await connectClient(server.url, { user_token: other.user_token });
});

test('watch is rate-limited per user (10100 past the limit)', async () => {
  const user = await makeUser();
  const { item_id } = await makeItem(user);
  const socket = await connectClient(server.url, { user_token: user.user_token });
  const answers = [];
  for (let i = 0; i < 125; i++) answers.push(await socket.watch({ item_id }));
  expect(answers.slice(0, 120).every((a) => 'ok' in a)).toBe(true);
  expect(answers[124]).toMatchObject({ error_code: 10100 });
});

test('a collaborative session ends when its token expires, without any event', async () => {
  const user = await makeUser();
  const { item_id } = await makeItem(user);
  const page = await makePage(user, item_id);
  // The token runs out a few seconds after the connection is made; nobody logs out.
  await UserToken.updateOne(
    { token: user.user_token },
    { $set: { token_expire: Math.floor(Date.now() / 1000) + 3 } },
  );
  forgetCachedReads();
  const collab = await openSynced(server.url, page.page_id, user.user_token);
  expect(collab.closes).toEqual([]);
  // The expiry sweep runs every 30 s: the connection is closed by the next one after expiry.
  await eventually(() => expect(collab.closes).toContain('session-ended'), {
    timeoutMs: 45_000,
    intervalMs: 250,
  });
}, 60_000);
