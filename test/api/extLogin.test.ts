/**
 * External login over real HTTP: OAuth2 authorization code against a real local provider
 * (oauth2-mock-server in its own process) — entrance redirect, state pinned to the browser,
 * code exchange, userinfo → local user, the bridge's single-use login code — including a wrong
 * state, a missing state cookie, a tampered code and an administrator's name; and generic-access
 * secret-key links (signed, expiring, single use, never an administrator).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { User } from '../../models/accounts/schemas';
import { configureAddressPolicy } from '../../models/platform';
import { BROWSER_UA } from '../helpers/client';
import { startOAuth2Provider, type TestOAuth2Provider } from '../helpers/oauth2Provider';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let provider: TestOAuth2Provider;
let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  provider = await startOAuth2Provider();
  // The provider listens on loopback: the address policy must name it (ALLOW_PRIVATE_HOSTS).
  server = await startTestServer({
    env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
  });
  admin = await makeUser({ admin: true });
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

const asAdmin = () => server.api.withToken(admin.user_token);

async function enableOauth2(open = 1) {
  await asAdmin().ok('adminSetting/saveOauth2Config', {
    oauth2_open: open,
    oauth2_form: JSON.stringify({
      client_id: 'quire-test',
      client_secret: 'provider-secret',
      protocol: 'http',
      host: provider.host,
      authorize_path: '/authorize',
      token_path: '/token',
      userinfo_path: '/userinfo',
      scope: 'openid profile',
    }),
  });
}

/** A GET that does not follow redirects, as a browser tab with its own cookie jar. */
async function get(url: string, cookie = '') {
  return fetch(url, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, ...(cookie ? { cookie } : {}) },
  });
}

/** Entrance → provider → back: the callback URL and this browser's state cookie. */
async function throughProvider(redirect = '/item/index') {
  const entrance = await get(
    `${server.url}/api/ExtLogin/oauth2?redirect=${encodeURIComponent(redirect)}`,
  );
  expect(entrance.status).toBe(302);
  const authorize = new URL(entrance.headers.get('location')!);
  expect(authorize.origin).toBe(provider.url);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.url}/api/ExtLogin/oauth2`);
  const cookie = entrance.headers.get('set-cookie')!.split(';')[0];
  expect(cookie).toBe(`quire_oauth2_state=${authorize.searchParams.get('state')}`);
  const back = await get(authorize.toString());
  expect(back.status).toBe(302);
  return { callback: new URL(back.headers.get('location')!), cookie };
}

async function redeem(location: string) {
  const code = new URL(location).searchParams.get('login_code')!;
  return server.api.call('ExtLogin/redeem', { login_code: code });
}

describe('OAuth2', () => {
  test('switched off, the entrance refuses with 10101', async () => {
    await enableOauth2(0);
    const answer = await get(`${server.url}/api/ExtLogin/oauth2`);
    expect((await answer.json()).error_code).toBe(10101);
  });

  test('the full flow creates the local user and logs in once through the bridge', async () => {
    await enableOauth2();
    await provider.setUser('oauth_alice');
    const { callback, cookie } = await throughProvider('/team/index');
    const done = await get(callback.toString(), cookie);
    expect(done.status).toBe(302);
    const bridge = new URL(done.headers.get('location')!);
    expect(bridge.pathname).toBe('/user/loginByUserToken');
    expect(bridge.searchParams.get('redirect_uri')).toBe('/team/index');
    expect(bridge.searchParams.has('user_token')).toBe(false);
    const first = await redeem(bridge.toString());
    expect(first.body.error_code).toBe(0);
    const token = (first.body.data as { user_token: string }).user_token;
    const info = await server.api.withToken(token).ok<{ username: string }>('user/info');
    expect(info.username).toBe('oauth_alice');
    expect(await User.findOne({ username: 'oauth_alice' }).lean()).toMatchObject({
      is_sso: 1,
      name: 'Person oauth_alice',
      groupid: 2,
    });
    // The login code is single use.
    expect((await redeem(bridge.toString())).body.error_code).toBe(10101);
  });

  test('a wrong state, a state without its cookie, and a replayed state are refused', async () => {
    await enableOauth2();
    await provider.setUser('oauth_bob');
    const { callback, cookie } = await throughProvider();
    const wrong = new URL(callback);
    wrong.searchParams.set('state', 'f'.repeat(48));
    expect((await (await get(wrong.toString(), cookie)).json()).error_code).toBe(10101);
    expect((await (await get(callback.toString())).json()).error_code).toBe(10101);
    const other = await throughProvider();
    expect((await get(other.callback.toString(), other.cookie)).status).toBe(302);
    expect((await (await get(other.callback.toString(), other.cookie)).json()).error_code).toBe(
      10101,
    );
  });

  test('a tampered code is refused by the provider and logs nobody in', async () => {
    await enableOauth2();
    await provider.setUser('oauth_carol');
    const { callback, cookie } = await throughProvider();
    callback.searchParams.set('code', `${callback.searchParams.get('code')}x`);
    const answer = await get(callback.toString(), cookie);
    expect((await answer.json()).error_code).toBe(10101);
    expect(await User.exists({ username: 'oauth_carol' })).toBeNull();
  });

  test('a provider on loopback not on the allow-list is not asked: the login says why, without the address', async () => {
    await enableOauth2();
    await provider.setUser('oauth_dora');
    const { callback, cookie } = await throughProvider();
    configureAddressPolicy([]);
    try {
      const answer = await (await get(callback.toString(), cookie)).json();
      expect(answer.error_code).toBe(10101);
      expect(answer.error_message).toMatch(/private address this site may not connect to/);
      expect(answer.error_message).not.toContain('127.0.0.1');
    } finally {
      configureAddressPolicy(['127.0.0.1']);
    }
    expect(await User.exists({ username: 'oauth_dora' })).toBeNull();
  });

  test('a provider user named like a local administrator is refused', async () => {
    await enableOauth2();
    await provider.setUser(admin.username);
    const { callback, cookie } = await throughProvider();
    const answer = await get(callback.toString(), cookie);
    expect((await answer.json()).error_code).toBe(10101);
  });

  test('the client secret is never returned by loadOauth2Config', async () => {
    await enableOauth2();
    const loaded = await asAdmin().ok('adminSetting/loadOauth2Config');
    expect(JSON.stringify(loaded)).not.toContain('provider-secret');
  });
});

describe('secret-key links', () => {
  async function link(username: string, time: number, key: string, extra = '') {
    const token = createHash('md5').update(`${username}${key}${time}`).digest('hex');
    return get(
      `${server.url}/api/ExtLogin/bySecretKey?username=${username}&time=${time}&token=${token}${extra}`,
    );
  }

  test('a signed link logs the user in once; replay, expiry, a bad signature and admins are refused', async () => {
    const { login_secret_key: key } = await asAdmin().ok<{ login_secret_key: string }>(
      'adminSetting/getLoginSecretKey',
    );
    const now = Math.floor(Date.now() / 1000);
    const answer = await link('linked_user', now, key, '&name=Linked&redirect=/attachment/index');
    expect(answer.status).toBe(302);
    const bridge = answer.headers.get('location')!;
    expect(new URL(bridge).searchParams.get('redirect_uri')).toBe('/attachment/index');
    const token = ((await redeem(bridge)).body.data as { user_token: string }).user_token;
    expect(
      (await server.api.withToken(token).ok<{ username: string; name: string }>('user/info')).name,
    ).toBe('Linked');

    expect((await (await link('linked_user', now, key)).json()).error_code).toBe(10101);
    expect((await (await link('linked_user', now - 3600, key)).json()).error_code).toBe(10101);
    expect((await (await link('linked_user', now + 3600, key)).json()).error_code).toBe(10101);
    expect((await (await link('other_user', now, 'wrong-key')).json()).error_code).toBe(10101);
    expect((await (await link(admin.username, now, key)).json()).error_code).toBe(10101);
    expect(await User.exists({ username: 'other_user' })).toBeNull();

    // After a reset, links signed with the old key stop working.
    await asAdmin().ok('adminSetting/resetLoginSecretKey');
    expect((await (await link('fresh_user', now, key)).json()).error_code).toBe(10101);
  });
});
