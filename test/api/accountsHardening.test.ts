/**
 * Account leaks closed (issue #16): the member picker cannot list the directory, usernames are
 * unique whatever their case, passwords bcrypt would truncate are refused, and registration and
 * captcha creation are throttled per client, with captcha ids that reveal nothing.
 *
 * The server trusts X-Forwarded-For here so each test can be a different client address.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { nextId } from '../../models/platform/counters';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { User } from '../../models/accounts/schemas/user';
import { nowSeconds } from '../../models/platform/time';
import { usernameClashes } from '../../models/accounts';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let clientNo = 0;

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'silent' } });
});
afterAll(async () => {
  await server?.stop();
});

/** A new client address (X-Forwarded-For) for a test's own throttle counts. */
function newClient(): Record<string, string> {
  clientNo += 1;
  return { 'x-forwarded-for': `198.51.100.${clientNo}` };
}

async function captchaFor(headers: Record<string, string>) {
  const { captcha_id } = await server.api.ok<{ captcha_id: number }>(
    'common/createCaptcha',
    {},
    { headers },
  );
  const row = await Captcha.findOne({ captcha_id }).lean();
  return { captcha_id, captcha: row!.captcha };
}

async function register(username: string, password: string, headers = newClient()) {
  return server.api.call(
    'user/registerByVerify',
    { username, password, confirm_password: password, ...(await captchaFor(headers)) },
    { headers },
  );
}

describe('user/allUser cannot list the directory to a stranger', () => {
  test('with nobody to work with, empty and short terms find nothing but an exact username; 3+ characters a prefix; 10 at most', async () => {
    const me = await makeUser({ username: 'picker_me' });
    await makeUser({ username: 'bo', name: 'Bo' });
    const rows = [];
    for (let i = 0; i < 15; i++)
      rows.push({
        uid: await nextId('uid'),
        username: `zeta_${String(i).padStart(2, '0')}`,
        groupid: 2,
        password: '$2b$10$abcdefghijklmnopqrstuu0123456789abcdefghijklmnopqrstu',
        reg_time: nowSeconds(),
      });
    await User.insertMany(rows);
    forgetCachedReads();
    const api = server.api.withToken(me.user_token);

    expect(await api.ok('user/allUser', { username: '' })).toEqual([]);
    expect(await api.ok('user/allUser')).toEqual([]);
    expect(await api.ok('user/allUser', { username: 'z' })).toEqual([]);
    expect(await api.ok('user/allUser', { username: 'ze' })).toEqual([]);
    expect(await api.ok('user/allUser', { username: 'BO' })).toEqual([
      { username: 'bo', uid: expect.any(String), name: 'Bo', value: 'bo' },
    ]);
    const prefix = await api.ok<{ username: string }[]>('user/allUser', { username: 'zet' });
    expect(prefix).toHaveLength(10);
    expect(prefix.every((u) => Object.keys(u).sort().join() === 'name,uid,username,value')).toBe(
      true,
    );
    // A substring that is not a prefix finds nothing.
    expect(await api.ok('user/allUser', { username: 'eta_' })).toEqual([]);
  });

  test('each user gets 60 searches a minute, then 10100 (others are not affected)', async () => {
    const busy = await makeUser();
    const other = await makeUser();
    const api = server.api.withToken(busy.user_token);
    for (let i = 0; i < 60; i++) await api.ok('user/allUser', { username: 'abc' });
    const refused = await api.fail('user/allUser', { username: 'abc' });
    expect(refused.error_code).toBe(10100);
    expect(refused.error_message).toMatch(/Too many requests/);
    await server.api.withToken(other.user_token).ok('user/allUser', { username: 'abc' });
  });
});

describe('usernames are unique case-insensitively', () => {
  test('registering Alice beside alice is refused; login with another case finds the account', async () => {
    expect((await register('alice_case', 'pass-alice-1')).body.error_code).toBe(0);
    const clash = await register('Alice_Case', 'pass-alice-2');
    expect(clash.body).toEqual({ error_code: 10101, error_message: 'Username already exists' });
    expect(await User.countDocuments({ username: /^alice_case$/i })).toBe(1);

    const headers = newClient();
    const login = await server.api.call(
      'user/loginByVerify',
      { username: 'ALICE_CASE', password: 'pass-alice-1', ...(await captchaFor(headers)) },
      { headers },
    );
    expect(login.body.error_code).toBe(0);
    expect((login.body.data as { username: string }).username).toBe('alice_case');
  });

  test('accounts that already clash by case are reported at start, never merged or deleted', async () => {
    for (const username of ['Clash_Old', 'clash_old'])
      await User.create({
        uid: await nextId('uid'),
        username,
        groupid: 2,
        password: '$2b$10$abcdefghijklmnopqrstuu0123456789abcdefghijklmnopqrstu',
        salt: '',
        reg_time: nowSeconds(),
      });
    forgetCachedReads();
    expect(await usernameClashes()).toContainEqual(['Clash_Old', 'clash_old']);
    expect(await User.countDocuments({ username: /^clash_old$/i })).toBe(2);
  });
});

describe('passwords bcrypt would truncate', () => {
  test('a new password over 72 bytes is refused with a clear error; 72 bytes is fine', async () => {
    const long = await register('long_pw', 'é'.repeat(37)); // 74 bytes in UTF-8
    expect(long.body).toEqual({
      error_code: 10101,
      error_message: 'Password must be at most 72 bytes (UTF-8)',
    });
    expect(await User.exists({ username: 'long_pw' })).toBeNull();
    expect((await register('exact_pw', 'a'.repeat(72))).body.error_code).toBe(0);
  });

  test('an account stored with a longer password (older limit) still logs in', async () => {
    const password = 'b'.repeat(90);
    await User.create({
      uid: await nextId('uid'),
      username: 'legacy_long',
      groupid: 2,
      password: await bcrypt.hash(password, 4),
      salt: '',
      reg_time: nowSeconds(),
    });
    forgetCachedReads();
    const headers = newClient();
    const login = await server.api.call(
      'user/loginByVerify',
      { username: 'legacy_long', password, ...(await captchaFor(headers)) },
      { headers },
    );
    expect(login.body.error_code).toBe(0);
  });
});

describe('throttles and captcha ids', () => {
  test('one client registers at most 10 accounts an hour; another client still can', async () => {
    const headers = newClient();
    for (let i = 0; i < 10; i++)
      expect((await register(`reg_${i}_x`, 'pass-reg-1', headers)).body.error_code).toBe(0);
    const refused = await register('reg_11_x', 'pass-reg-1', headers);
    expect(refused.body.error_code).toBe(10100);
    expect(await User.exists({ username: 'reg_11_x' })).toBeNull();
    expect((await register('reg_other', 'pass-reg-1')).body.error_code).toBe(0);
  });

  test('captcha ids are random, and one client gets 60 captchas a minute', async () => {
    const headers = newClient();
    const ids: number[] = [];
    for (let i = 0; i < 60; i++)
      ids.push(
        (await server.api.ok<{ captcha_id: number }>('common/createCaptcha', {}, { headers }))
          .captcha_id,
      );
    expect(ids.every(Number.isSafeInteger)).toBe(true);
    const steps = ids.slice(1).map((id, i) => id - ids[i]);
    expect(steps.filter((step) => step === 1).length).toBeLessThan(3);
    const refused = await server.api.fail('common/createCaptcha', {}, { headers });
    expect(refused.error_code).toBe(10100);
    await server.api.ok('common/createCaptcha', {}, { headers: newClient() });
  });
});
