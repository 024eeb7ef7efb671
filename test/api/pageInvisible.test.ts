/**
 * A page one may not read answers exactly like a page that does not exist (issue #16), on every
 * page route: a page outside one's catalogs, another person's draft. Nothing in the answer tells an
 * existing id from a missing one — a password-protected item's page too, except on the page
 * fetches (page/info, comments, feedback), which answer 10303 so a client knows to ask for the
 * visit password (spec: 10303/10307 on a page fetch → the password screen).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
const hidden: Record<string, { page_id: number; item_id: number }> = {};
let privateItem = 0;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  owner = await makeUser();
  member = await makeUser();
  stranger = await makeUser();
  privateItem = (await makeItem(owner, { password: 'visit-pass' })).item_id;
  hidden.privateItem = await makePage(owner, privateItem, { title: 'Private' });

  const shared = (await makeItem(owner)).item_id;
  const open = await makeCatalog(owner, shared, 'Open');
  const closed = await makeCatalog(owner, shared, 'Closed');
  await addMember(shared, member, 1, [open]);
  hidden.outsideCatalog = await makePage(owner, shared, { title: 'Closed page', catId: closed });
  hidden.othersDraft = await makePage(owner, shared, { title: 'Draft', catId: open, isDraft: 1 });
});
afterAll(async () => {
  await server?.stop();
});

const ROUTES = ['page/info', 'page/history', 'page/isLock', 'page/uploadList'];

async function answer(user: TestUser, route: string, page: { page_id: number; item_id: number }) {
  const res = await server.api
    .withToken(user.user_token)
    .call(route, { page_id: page.page_id, item_id: page.item_id });
  return { status: res.status, body: res.body };
}

test('every page route answers an unreadable page exactly like a missing one', async () => {
  const missing = { page_id: 987_654_321, item_id: 0 };
  for (const route of ROUTES) {
    for (const [user, page] of [
      [stranger, hidden.privateItem],
      [member, hidden.outsideCatalog],
      [member, hidden.othersDraft],
    ] as const) {
      if (page === hidden.privateItem && route === 'page/info') continue; // asks the password
      const expected = await answer(user, route, { ...missing, item_id: page.item_id });
      expect(expected.body.error_code).not.toBe(0);
      expect({ route, ...(await answer(user, route, page)) }).toEqual({ route, ...expected });
    }
  }
});

test("a password-protected item's page fetches answer 10303 (the password screen)", async () => {
  for (const route of ['page/info', 'page_comment/getList', 'page_feedback/getStat']) {
    const { body } = await answer(stranger, route, hidden.privateItem);
    expect({ route, code: body.error_code }).toEqual({ route, code: 10303 });
  }
});

test('the private item itself still asks for its password (10303), and the password opens the page', async () => {
  const info = await server.api.withToken(stranger.user_token).call('item/info', {
    item_id: privateItem,
  });
  expect(info.body.error_code).toBe(10303);
  const page = await server.api
    .withToken(stranger.user_token)
    .ok<{ page_title: string }>('page/info', {
      page_id: hidden.privateItem.page_id,
      _item_pwd: 'visit-pass',
    });
  expect(page.page_title).toBe('Private');
});
