/**
 * The `user` controller over real HTTP: login (captcha, lockout, legacy hashes, token lifetime),
 * registration, profile, password change, logout, user search, OAuth info and the push address —
 * with hostile input, expired tokens and the log checked for secrets.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { nextId } from '../../models/platform/counters';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { LoginAttempt } from '../../models/accounts/schemas/loginAttempt';
import { User } from '../../models/accounts/schemas/user';
import { UserSetting } from '../../models/accounts/schemas/userSetting';
import { UserToken } from '../../models/accounts/schemas/userToken';
import { deleteSetting, setSetting } from '../../models/settings/settings';
import { issueToken } from '../../models/accounts/users';
import { nowSeconds } from '../../models/platform/time';
import type { ApiParams, CallOptions } from '../helpers/client';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
/** Every password and token the tests used: none may appear in the server's log. */
const secrets: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  const text = server.logText();
  for (const secret of secrets) expect(text).not.toContain(secret);
  await server.stop();
});

async function user(options: Parameters<typeof makeUser>[0] = {}): Promise<TestUser> {
  const made = await makeUser(options);
  secrets.push(made.password, made.user_token);
  return made;
}

/** A fresh captcha through the API; its text is read from the database, as a person reads it. */
async function captcha(): Promise<{ captcha_id: number; captcha: string }> {
  const { captcha_id } = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
  const row = await Captcha.findOne({ captcha_id }).lean();
  return { captcha_id, captcha: row!.captcha };
}

async function login(username: string, password: string, options: CallOptions = {}) {
  return server.api.call(
    'user/loginByVerify',
    { username, password, ...(await captcha()) },
    options,
  );
}

async function liveTokens(uid?: number): Promise<number> {
  return UserToken.countDocuments(uid ? { uid, token: { $gt: '' } } : { token: { $gt: '' } });
}

async function expiredTokenFor(uid: number): Promise<string> {
  const { token } = await issueToken(uid);
  await UserToken.updateOne({ token }, { $set: { token_expire: nowSeconds() - 1 } });
  forgetCachedReads();
  secrets.push(token);
  return token;
}

function legacyHash(password: string, salt: string): string {
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');
  return md5(Buffer.from(md5(password)).toString('base64') + '576hbgh6' + salt);
}

describe('user/login', () => {
  test('right password and captcha: ShowDoc login shape, string ids, a 128-hex token that works', async () => {
    const alice = await user({ name: 'Alice' });
    const before = nowSeconds();
    const res = await login(alice.username, alice.password);
    expect(res.status).toBe(200);
    expect(res.body.error_code).toBe(0);
    const data = res.body.data as Record<string, unknown>;
    expect(data).toEqual({
      uid: String(alice.uid),
      username: alice.username,
      name: 'Alice',
      groupid: '2',
      avatar: '',
      avatar_small: '',
      email: '',
      email_verify: 0,
      user_token: expect.stringMatching(/^[0-9a-f]{128}$/),
    });
    secrets.push(String(data.user_token));

    const info = await server.api
      .withToken(String(data.user_token))
      .ok<{ uid: string }>('user/info');
    expect(info.uid).toBe(String(alice.uid));
    const row = await User.findOne({ uid: alice.uid }).lean();
    expect(row!.last_login_time).toBeGreaterThanOrEqual(before);
    const token = await UserToken.findOne({ token: String(data.user_token) }).lean();
    expect(token!.token_expire - token!.addtime).toBe(180 * 86400);
    // A login adds a device; the earlier token stays valid.
    await expect(server.api.withToken(alice.user_token).ok('user/info')).resolves.toBeDefined();
  });

  test.each([
    ['user/login', 'api'],
    ['user/loginByVerify', 'server'],
    ['user/LOGINBYVERIFY', 'index.php'],
  ] as const)('%s via the /%s URL form reaches the login handler', async (route, form) => {
    const bob = await user();
    const res = await server.api.call(
      route,
      { username: bob.username, password: bob.password, ...(await captcha()) },
      { form },
    );
    expect(res.body.error_code).toBe(0);
    expect((res.body.data as { username: string }).username).toBe(bob.username);
    secrets.push((res.body.data as { user_token: string }).user_token);
  });

  test('empty username or password → 10101, and the captcha is not used up', async () => {
    const c = await captcha();
    const res = await server.api.call('user/login', { username: '', password: 'x', ...c });
    expect(res.body.error_code).toBe(10101);
    const res2 = await server.api.call('user/login', { username: 'someone', password: '', ...c });
    expect(res2.body.error_code).toBe(10101);
    expect(
      (await Captcha.findOne({ captcha_id: c.captcha_id }).lean())!.expire_time,
    ).toBeGreaterThan(nowSeconds());
  });

  test.each(['a', 'someone@example.com', 'x'.repeat(31), 'dot.name', 'sp ace'])(
    'username %p breaks the username rule → 10101',
    async (username) => {
      const res = await server.api.call('user/login', {
        username,
        password: 'pw',
        ...(await captcha()),
      });
      expect(res.body.error_code).toBe(10101);
    },
  );

  test('wrong, missing or unknown captcha → 10206 without testing the password', async () => {
    const carol = await user();
    const c = await captcha();
    const wrong = c.captcha === 'AAAA' ? 'BBBB' : 'AAAA';
    for (const params of [
      { captcha_id: c.captcha_id, captcha: wrong },
      { captcha_id: c.captcha_id },
      { captcha_id: 999_999, captcha: 'ABCD' },
      {},
    ]) {
      const res = await server.api.call('user/login', {
        username: carol.username,
        password: carol.password,
        ...params,
      });
      expect(res.body.error_code).toBe(10206);
    }
    expect(await LoginAttempt.countDocuments({ key: carol.username.toLowerCase() })).toBe(0);
    expect(await liveTokens(carol.uid)).toBe(1);
  });

  test('the captcha answer is case-insensitive and trimmed', async () => {
    const dan = await user();
    const c = await captcha();
    const res = await server.api.call('user/login', {
      username: dan.username,
      password: dan.password,
      captcha_id: c.captcha_id,
      captcha: `  ${c.captcha.toLowerCase()} `,
    });
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
  });

  test('a captcha is single use, even when the password with it was wrong', async () => {
    const erin = await user();
    const c = await captcha();
    const first = await server.api.call('user/login', {
      username: erin.username,
      password: 'wrong-password',
      ...c,
    });
    expect(first.body.error_code).toBe(10210);
    const again = await server.api.call('user/login', {
      username: erin.username,
      password: erin.password,
      ...c,
    });
    expect(again.body.error_code).toBe(10206);
  });

  test('a wrong guess burns the captcha: the right text afterwards is refused (issue 32 #11)', async () => {
    const gil = await user();
    const c = await captcha();
    const wrong = c.captcha === 'AAAA' ? 'BBBB' : 'AAAA';
    const guess = await server.api.call('user/login', {
      username: gil.username,
      password: gil.password,
      captcha_id: c.captcha_id,
      captcha: wrong,
    });
    expect(guess.body.error_code).toBe(10206);
    const right = await server.api.call('user/login', {
      username: gil.username,
      password: gil.password,
      ...c,
    });
    expect(right.body.error_code).toBe(10206);
    expect(await liveTokens(gil.uid)).toBe(1);
  });

  test('an expired captcha → 10206', async () => {
    const fay = await user();
    const c = await captcha();
    await Captcha.updateOne(
      { captcha_id: c.captcha_id },
      { $set: { expire_time: nowSeconds() - 1 } },
    );
    const res = await server.api.call('user/login', {
      username: fay.username,
      password: fay.password,
      ...c,
    });
    expect(res.body.error_code).toBe(10206);
  });

  test('wrong credentials → 10210 for a known and for an unknown username', async () => {
    const gus = await user();
    expect((await login(gus.username, 'not-it')).body.error_code).toBe(10210);
    expect((await login('nobody_here', 'whatever')).body.error_code).toBe(10210);
    expect(await liveTokens(gus.uid)).toBe(1);
  });

  test('5 wrong passwords lock the username (any case) for 300 s → 10204, even with the right password', async () => {
    const hal = await user();
    for (let i = 0; i < 5; i++)
      expect((await login(hal.username, `wrong-${i}`)).body.error_code).toBe(10210);

    const locked = await login(hal.username, hal.password);
    expect(locked.body.error_code).toBe(10204);
    expect((await login(hal.username.toUpperCase(), hal.password)).body.error_code).toBe(10204);
    expect(await liveTokens(hal.uid)).toBe(1);

    // The lock is a database row (shared by every API process), ending 300 s after the 5th failure.
    const row = await LoginAttempt.findOne({ key: hal.username.toLowerCase() }).lean();
    expect(row!.failures).toBe(5);
    expect(row!.locked_until - nowSeconds()).toBeGreaterThan(290);

    // When the lock has run out the right password works again, and clears the count.
    await LoginAttempt.updateOne(
      { key: hal.username.toLowerCase() },
      { $set: { locked_until: nowSeconds() - 1 } },
    );
    const res = await login(hal.username, hal.password);
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
    expect(await LoginAttempt.countDocuments({ key: hal.username.toLowerCase() })).toBe(0);
  });

  test('captcha failures do not count towards the lock', async () => {
    const ivy = await user();
    for (let i = 0; i < 4; i++)
      expect((await login(ivy.username, `wrong-${i}`)).body.error_code).toBe(10210);
    for (let i = 0; i < 3; i++) {
      const res = await server.api.call('user/login', {
        username: ivy.username,
        password: `wrong-again-${i}`,
        captcha_id: 999_999,
        captcha: 'ZZZZ',
      });
      expect(res.body.error_code).toBe(10206);
    }
    const res = await login(ivy.username, ivy.password);
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
  });

  test('a legacy ShowDoc MD5 hash logs in and is replaced by bcrypt', async () => {
    const password = 'legacy-Pass-1';
    const salt = 'a1b2c3';
    const uid = await nextId('uid');
    await User.create({
      uid,
      username: 'legacy_user',
      groupid: 2,
      password: legacyHash(password, salt),
      salt,
      reg_time: nowSeconds(),
    });
    forgetCachedReads();
    secrets.push(password);

    expect((await login('legacy_user', 'wrong')).body.error_code).toBe(10210);
    const res = await login('legacy_user', password);
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
    const row = await User.findOne({ uid }).lean();
    expect(row!.password).toMatch(/^\$2[aby]\$10\$/);
    expect(row!.salt).toBe('');
    const again = await login('legacy_user', password);
    expect(again.body.error_code).toBe(0);
    secrets.push((again.body.data as { user_token: string }).user_token);
  });

  test('tokens last token_ttl_days when the site sets it', async () => {
    const jay = await user();
    await setSetting('token_ttl_days', '7');
    try {
      const res = await login(jay.username, jay.password);
      const token = (res.body.data as { user_token: string }).user_token;
      secrets.push(token);
      const row = await UserToken.findOne({ token }).lean();
      expect(row!.token_expire - row!.addtime).toBe(7 * 86400);
    } finally {
      await deleteSetting('token_ttl_days');
    }
  });

  test('operator objects and prototype keys get an envelope error and write nothing', async () => {
    const kim = await user();
    const users = await User.countDocuments();
    const tokens = await liveTokens();
    const c = await captcha();
    const attempts: [ApiParams, CallOptions][] = [
      [{ username: { $ne: '' }, password: { $ne: '' }, ...c }, { json: true }],
      [{ username: kim.username, password: { $ne: '' }, ...c }, {}],
      [{ username: kim.username, password: { $gt: '' }, ...c }, { json: true }],
      [{ username: [kim.username], password: kim.password, ...c }, {}],
      [
        {
          username: kim.username,
          password: kim.password,
          captcha_id: { $gt: 0 },
          captcha: c.captcha,
        },
        { json: true },
      ],
    ];
    for (const [params, options] of attempts) {
      const res = await server.api.call('user/login', params, options);
      expect(res.status).toBe(200);
      expect([10101, 10206]).toContain(res.body.error_code);
    }
    // __proto__ keys in JSON and in forms are dropped before anything reads them.
    const proto = await server.request('/api/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0' },
      body: `{"__proto__":{"username":"${kim.username}","password":"${kim.password}","polluted":1},"captcha_id":${c.captcha_id},"captcha":"${c.captcha}"}`,
    });
    expect((await proto.json()).error_code).toBe(10101);
    const form = await server.request(
      `/api/user/login?__proto__[polluted]=1&constructor[prototype][polluted]=1`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'Mozilla/5.0',
        },
        body: `__proto__[username]=${kim.username}&__proto__[password]=${kim.password}`,
      },
    );
    expect((await form.json()).error_code).toBe(10101);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await User.countDocuments()).toBe(users);
    expect(await liveTokens()).toBe(tokens);
  });
});

describe('user/register', () => {
  test('creates an ordinary bcrypt account, publishes user.created and logs it in', async () => {
    const seen: DomainEvents['user.created'][] = [];
    const unsubscribe = events.subscribe('user.created', (e) => void seen.push(e));
    const password = 'Register-pw-1';
    secrets.push(password);
    const res = await server.api.call('user/registerByVerify', {
      username: 'new_reader',
      password,
      confirm_password: password,
      inviteCode: '',
      ...(await captcha()),
    });
    await new Promise((resolve) => setImmediate(resolve));
    unsubscribe();
    expect(res.body.error_code).toBe(0);
    const data = res.body.data as Record<string, string>;
    secrets.push(data.user_token);
    expect(data).toMatchObject({ username: 'new_reader', groupid: '2', name: '', email_verify: 0 });
    expect(data.uid).toMatch(/^\d+$/);
    const row = await User.findOne({ username: 'new_reader' }).lean();
    expect(row!.password).toMatch(/^\$2[aby]\$10\$/);
    expect(row!.groupid).toBe(2);
    expect(row!.reg_time).toBeGreaterThan(0);
    expect(seen).toEqual([{ uid: row!.uid, username: 'new_reader', groupid: 2 }]);
    const info = await server.api.withToken(data.user_token).ok<{ username: string }>('user/info');
    expect(info.username).toBe('new_reader');
  });

  test('user/register is the same action, and a Chinese username is accepted', async () => {
    const res = await server.api.call('user/register', {
      username: '中文用户',
      password: 'pw-zh-1',
      confirm_password: 'pw-zh-1',
      ...(await captcha()),
    });
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
    expect((await login('中文用户', 'pw-zh-1')).body.error_code).toBe(0);
  });

  async function rejected(params: ApiParams, code = 10101): Promise<string> {
    const users = await User.countDocuments();
    const res = await server.api.call('user/register', params);
    expect(res.body.error_code).toBe(code);
    expect(await User.countDocuments()).toBe(users);
    return String(res.body.error_message);
  }

  test('registration closed (register_open "0") → 10101, nothing written', async () => {
    await setSetting('register_open', '0');
    try {
      await rejected({
        username: 'closed_door',
        password: 'pw-1',
        confirm_password: 'pw-1',
        ...(await captcha()),
      });
    } finally {
      await deleteSetting('register_open');
    }
  });

  test('mismatch, empty, over 100 bytes, bad username → 10101; wrong captcha → 10206', async () => {
    const long = 'é'.repeat(51); // 102 bytes
    await rejected({
      username: 'mismatch_1',
      password: 'pw-1',
      confirm_password: 'pw-2',
      ...(await captcha()),
    });
    await rejected({
      username: 'empty_pw',
      password: '',
      confirm_password: '',
      ...(await captcha()),
    });
    await rejected({
      username: 'long_pw',
      password: long,
      confirm_password: long,
      ...(await captcha()),
    });
    await rejected({
      username: 'a@b.c',
      password: 'pw-1',
      confirm_password: 'pw-1',
      ...(await captcha()),
    });
    await rejected(
      {
        username: 'bad_captcha',
        password: 'pw-1',
        confirm_password: 'pw-1',
        captcha_id: 1,
        captcha: '!!!!',
      },
      10206,
    );
  });

  test('the strong-password policy applies when enabled, naming every broken rule', async () => {
    await setSetting('strong_password_enabled', '1');
    try {
      const message = await rejected({
        username: 'weak_pw',
        password: 'abc',
        confirm_password: 'abc',
        ...(await captcha()),
      });
      expect(message).toMatch(/8 characters.*uppercase.*digit.*symbol/);
      const res = await server.api.call('user/register', {
        username: 'strong_pw',
        password: 'Str0ng!pass',
        confirm_password: 'Str0ng!pass',
        ...(await captcha()),
      });
      expect(res.body.error_code).toBe(0);
      secrets.push((res.body.data as { user_token: string }).user_token);
    } finally {
      await deleteSetting('strong_password_enabled');
    }
  });

  test('a taken username → 10101 and the existing account is untouched', async () => {
    const liz = await user();
    const before = await User.findOne({ uid: liz.uid }).lean();
    await rejected({
      username: liz.username,
      password: 'other-pw',
      confirm_password: 'other-pw',
      ...(await captcha()),
    });
    expect((await User.findOne({ uid: liz.uid }).lean())!.password).toBe(before!.password);
  });

  test('operator objects in registration → envelope error, no account', async () => {
    const c = await captcha();
    await rejected({ username: { $gt: '' }, password: 'pw', confirm_password: 'pw', ...c });
    const res = await server.api.call(
      'user/register',
      { username: 'json_op', password: { $ne: 1 }, confirm_password: { $ne: 1 }, ...c },
      { json: true },
    );
    expect(res.body.error_code).toBe(10101);
    expect(await User.countDocuments({ username: 'json_op' })).toBe(0);
  });
});

describe('logged-in endpoints refuse anonymous and expired tokens', () => {
  const calls: [string, ApiParams][] = [
    ['user/info', {}],
    ['user/updateInfo', { name: 'Changed' }],
    ['user/resetPassword', { password: 'x', new_password: 'new-pw-1' }],
    ['user/allUser', { username: '' }],
    ['user/getPushUrl', {}],
    ['user/savePushUrl', { push_url: 'https://example.com/hook' }],
  ];

  test.each(calls)(
    '%s → 10102 without a token, with an unknown one and with an expired one',
    async (route, params) => {
      const mo = await user({ name: 'Mo' });
      const expired = await expiredTokenFor(mo.uid);
      const before = await User.findOne({ uid: mo.uid }).lean();
      for (const token of ['', 'f'.repeat(128), expired]) {
        const res = await server.api.call(route, params, { token });
        expect(res.body).toEqual({ error_code: 10102, error_message: expect.any(String) });
      }
      expect(await User.findOne({ uid: mo.uid }).lean()).toEqual(before);
      expect(await UserSetting.countDocuments({ uid: mo.uid })).toBe(0);
      expect(await liveTokens(mo.uid)).toBe(2);
    },
  );
});

describe('user/info (also the token-login bridge)', () => {
  test('answers the info shape for the token as a parameter, a query, X-API-Token or Bearer', async () => {
    const ned = await user({ name: 'Ned' });
    const row = await User.findOne({ uid: ned.uid }).lean();
    const expected = {
      uid: String(ned.uid),
      username: ned.username,
      email: '',
      email_verify: 0,
      mobile: '',
      name: 'Ned',
      avatar: '',
      avatar_small: '',
      groupid: '2',
      reg_time: String(row!.reg_time),
      is_wechat: 0,
      is_sso: '0',
    };
    const anon = server.api;
    expect(await anon.ok('user/info', { user_token: ned.user_token })).toEqual(expected);
    expect(await anon.ok('user/info', { user_token: ned.user_token }, { method: 'GET' })).toEqual(
      expected,
    );
    expect(await anon.ok('user/info', {}, { headers: { 'X-API-Token': ned.user_token } })).toEqual(
      expected,
    );
    expect(
      await anon.ok('user/info', {}, { headers: { Authorization: `Bearer ${ned.user_token}` } }),
    ).toEqual(expected);
    const text = JSON.stringify(await anon.ok('user/info', { user_token: ned.user_token }));
    expect(text).not.toMatch(/password|salt/);
  });
});

describe('user/updateInfo', () => {
  test('sets the trimmed name; too long, control characters or objects → 10101 and no change', async () => {
    const oz = await user({ name: 'Oz' });
    const api = server.api.withToken(oz.user_token);
    expect(await api.ok('user/updateInfo', { name: '  Oz the Great  ' })).toEqual([]);
    expect((await User.findOne({ uid: oz.uid }).lean())!.name).toBe('Oz the Great');
    expect((await api.call('user/updateInfo', { name: 'x'.repeat(65) })).body.error_code).toBe(
      10101,
    );
    expect((await api.call('user/updateInfo', { name: 'a\u0000b' })).body.error_code).toBe(10101);
    expect(
      (await api.call('user/updateInfo', { name: { $set: 'x' } }, { json: true })).body.error_code,
    ).toBe(10101);
    expect((await User.findOne({ uid: oz.uid }).lean())!.name).toBe('Oz the Great');
    expect(await api.ok('user/updateInfo', { name: '名'.repeat(64) })).toEqual([]);
  });
});

describe('user/resetPassword', () => {
  test('a wrong current password or a bad new one → 10101 and nothing changes', async () => {
    const pat = await user();
    const api = server.api.withToken(pat.user_token);
    const before = (await User.findOne({ uid: pat.uid }).lean())!.password;
    const bad: ApiParams[] = [
      { password: 'not-current', new_password: 'new-pw-1' },
      { password: pat.password, new_password: '' },
      { password: pat.password, new_password: 'x'.repeat(101) },
      { password: { $ne: '' }, new_password: 'new-pw-1' },
    ];
    for (const params of bad)
      expect((await api.call('user/resetPassword', params)).body.error_code).toBe(10101);
    expect((await User.findOne({ uid: pat.uid }).lean())!.password).toBe(before);
    expect(await liveTokens(pat.uid)).toBe(1);
  });

  test('success stores a new bcrypt hash and blanks every token, the caller’s included', async () => {
    const quinn = await user();
    const other = await login(quinn.username, quinn.password);
    const otherToken = (other.body.data as { user_token: string }).user_token;
    secrets.push(otherToken, 'Quinn-new-pw-1');
    const api = server.api.withToken(quinn.user_token);
    expect(
      await api.ok('user/resetPassword', {
        password: quinn.password,
        new_password: 'Quinn-new-pw-1',
      }),
    ).toEqual([]);
    expect(await liveTokens(quinn.uid)).toBe(0);
    expect((await api.call('user/info')).body.error_code).toBe(10102);
    expect((await server.api.withToken(otherToken).call('user/info')).body.error_code).toBe(10102);
    expect((await login(quinn.username, quinn.password)).body.error_code).toBe(10210);
    const res = await login(quinn.username, 'Quinn-new-pw-1');
    expect(res.body.error_code).toBe(0);
    secrets.push((res.body.data as { user_token: string }).user_token);
  });

  test('wrong current passwords count towards the login lock (a stolen token cannot guess freely)', async () => {
    const rae = await user();
    const api = server.api.withToken(rae.user_token);
    for (let i = 0; i < 5; i++)
      expect(
        (await api.call('user/resetPassword', { password: `guess-${i}`, new_password: 'new-pw-1' }))
          .body.error_code,
      ).toBe(10101);
    const locked = await api.call('user/resetPassword', {
      password: rae.password,
      new_password: 'new-pw-1',
    });
    expect(locked.body.error_code).toBe(10204);
    expect((await login(rae.username, rae.password)).body.error_code).toBe(10204);
  });

  test('the strong-password policy applies to the new password when enabled', async () => {
    const sam = await user();
    await setSetting('strong_password_enabled', '1');
    try {
      const res = await server.api
        .withToken(sam.user_token)
        .call('user/resetPassword', { password: sam.password, new_password: 'weakpass' });
      expect(res.body.error_code).toBe(10101);
      expect(await liveTokens(sam.uid)).toBe(1);
    } finally {
      await deleteSetting('strong_password_enabled');
    }
  });
});

describe('user/logout', () => {
  test('blanks every token of the caller (all devices) and answers []', async () => {
    const tia = await user();
    const second = await issueToken(tia.uid);
    secrets.push(second.token);
    const bystander = await user();
    expect(await server.api.withToken(tia.user_token).ok('user/logout', { confirm: 1 })).toEqual(
      [],
    );
    expect(await liveTokens(tia.uid)).toBe(0);
    expect((await server.api.withToken(second.token).call('user/info')).body.error_code).toBe(
      10102,
    );
    expect(await liveTokens(bystander.uid)).toBe(1);
  });

  test('always succeeds: without a token, with an unknown or an expired one (which logs no one out)', async () => {
    const uma = await user();
    const expired = await expiredTokenFor(uma.uid);
    for (const token of ['', 'f'.repeat(128), expired])
      expect(await server.api.ok('user/logout', {}, { token })).toEqual([]);
    expect(await liveTokens(uma.uid)).toBe(2);
  });
});

describe('user/allUser', () => {
  test('finds usernames by literal, case-insensitive prefix of 3+ characters; never hashes; {username, uid, name}', async () => {
    const vic = await user({ username: 'Victor_Finder', name: 'Victor' });
    await user({ username: 'victoria_x' });
    await user({ username: 'the_victor' });
    const api = server.api.withToken(vic.user_token);
    const found = await api.ok<Record<string, unknown>[]>('user/allUser', { username: 'VICTOR' });
    expect(found.map((u) => u.username).sort()).toEqual(['Victor_Finder', 'victoria_x']);
    expect(found.find((u) => u.username === 'Victor_Finder')).toEqual({
      username: 'Victor_Finder',
      uid: String(vic.uid),
      name: 'Victor',
      value: 'Victor_Finder',
    });
    expect(JSON.stringify(found)).not.toMatch(/password|salt|\$2[aby]\$/);
    // Regex characters are matched literally.
    expect(await api.ok('user/allUser', { username: '.*.' })).toEqual([]);
    expect(await api.ok('user/allUser', { username: 'vi+' })).toEqual([]);
    // Over-long input is cut to 200 characters, not an error.
    expect(await api.ok('user/allUser', { username: 'v'.repeat(5000) })).toEqual([]);
    const op = await api.call('user/allUser', { username: { $regex: '.*' } }, { json: true });
    expect(op.body.error_code).toBe(10101);
  });
});

describe('user/oauthInfo', () => {
  test('anonymous: null and "" by default, the stored switch and entrance tips once set', async () => {
    expect(await server.api.ok('user/oauthInfo', {}, { method: 'GET' })).toEqual({
      oauth2_open: null,
      oauth2_entrance_tips: '',
    });
    await setSetting('oauth2_open', '1');
    await setSetting(
      'oauth2_form',
      '{&quot;entrance_tips&quot;:&quot;Sign in with Corp SSO&quot;,&quot;client_secret&quot;:&quot;s3cret&quot;}',
    );
    try {
      const data = await server.api.ok('user/oauthInfo');
      expect(data).toEqual({ oauth2_open: '1', oauth2_entrance_tips: 'Sign in with Corp SSO' });
      expect(JSON.stringify(data)).not.toContain('s3cret');
    } finally {
      await deleteSetting('oauth2_open');
      await deleteSetting('oauth2_form');
    }
  });
});

describe('user/getPushUrl and user/savePushUrl', () => {
  test('store and return an http(s) address per user; other schemes → 10101 and nothing stored', async () => {
    const xan = await user();
    const api = server.api.withToken(xan.user_token);
    expect(await api.ok('user/getPushUrl')).toEqual({ push_url: '' });
    for (const push_url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      `https://x/${'a'.repeat(2000)}`,
    ])
      expect((await api.call('user/savePushUrl', { push_url })).body.error_code).toBe(10101);
    expect(await UserSetting.countDocuments({ uid: xan.uid })).toBe(0);

    expect(
      await api.ok('user/savePushUrl', { push_url: 'https://hooks.example.com/a?b=1' }),
    ).toEqual([]);
    expect(await api.ok('user/getPushUrl')).toEqual({
      push_url: 'https://hooks.example.com/a?b=1',
    });
    expect(await api.ok('user/savePushUrl', { push_url: '' })).toEqual([]);
    expect(await api.ok('user/getPushUrl')).toEqual({ push_url: '' });
    expect(await UserSetting.countDocuments({ uid: xan.uid })).toBe(1);

    const yul = await user();
    expect(await server.api.withToken(yul.user_token).ok('user/getPushUrl')).toEqual({
      push_url: '',
    });
  });
});
