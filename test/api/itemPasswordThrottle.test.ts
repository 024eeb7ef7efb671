/**
 * Item visit passwords cannot be guessed without limit (issue #16): misses are counted per item
 * and client on every route that accepts a visit password — `_item_pwd` on the read routes and
 * item/pwd — and past the limit even the right password is refused (10100) for that client,
 * while other clients and other items are unaffected. A locked item keeps 10303 for callers
 * that send no password, so the client still knows to ask for one.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'silent' } });
  owner = await makeUser();
});
afterAll(async () => {
  await server?.stop();
});

const from = (n: number) => ({ headers: { 'x-forwarded-for': `203.0.113.${n}` } });

async function pwd(itemId: number, password: string, client: number) {
  const { captcha_id } = await server.api.ok<{ captcha_id: number }>(
    'common/createCaptcha',
    {},
    from(client),
  );
  const { captcha } = (await Captcha.findOne({ captcha_id }).lean())!;
  return server.api.call(
    'item/pwd',
    { item_id: itemId, password, captcha_id, captcha },
    from(client),
  );
}

test('ten wrong _item_pwd on read routes lock that client out of the item, right password included', async () => {
  const { item_id } = await makeItem(owner, { password: 'right-pass' });
  const page = await makePage(owner, item_id);
  for (let i = 0; i < 10; i++) {
    const route = i % 2 ? 'item/info' : 'page/info';
    const answer = await server.api.call(
      route,
      { item_id, page_id: page.page_id, _item_pwd: `guess-${i}` },
      from(1),
    );
    expect(answer.body.error_code).not.toBe(0);
    expect(answer.body.error_code).not.toBe(10100);
  }
  const locked = await server.api.call('item/info', { item_id, _item_pwd: 'right-pass' }, from(1));
  expect(locked.body.error_code).toBe(10100);
  expect(String(locked.body.error_message)).toMatch(/Too many wrong passwords/);
  expect((await pwd(item_id, 'right-pass', 1)).body.error_code).toBe(10100);
  // Without a password the item still asks for one.
  expect((await server.api.call('item/info', { item_id }, from(1))).body.error_code).toBe(10303);

  // Another client, and the same client on another item, are not affected.
  const other = await server.api.call('item/info', { item_id, _item_pwd: 'right-pass' }, from(2));
  expect(other.body.error_code).toBe(0);
  const second = await makeItem(owner, { password: 'second-pass' });
  const elsewhere = await server.api.call(
    'item/info',
    { item_id: second.item_id, _item_pwd: 'second-pass' },
    from(1),
  );
  expect(elsewhere.body.error_code).toBe(0);
});

test('item/pwd misses count toward the same limit', async () => {
  const { item_id } = await makeItem(owner, { password: 'pwd-pass' });
  for (let i = 0; i < 10; i++)
    expect((await pwd(item_id, `wrong-${i}`, 3)).body.error_code).toBe(10010);
  expect((await pwd(item_id, 'pwd-pass', 3)).body.error_code).toBe(10100);
  expect((await pwd(item_id, 'pwd-pass', 4)).body.error_code).toBe(0);
});

test('repeating one wrong password (a stale remembered one) is not counted again', async () => {
  const { item_id } = await makeItem(owner, { password: 'fresh-pass' });
  for (let i = 0; i < 20; i++)
    expect(
      (await server.api.call('item/info', { item_id, _item_pwd: 'stale-pass' }, from(5))).body
        .error_code,
    ).toBe(10303);
  const right = await server.api.call('item/info', { item_id, _item_pwd: 'fresh-pass' }, from(5));
  expect(right.body.error_code).toBe(0);
});
