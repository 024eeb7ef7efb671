/**
 * LDAP login against a real slapd started for this file: with LDAP switched on in the back
 * office, `user/login` falls back to the directory — the first login creates the local user (name
 * from the directory, `is_sso` 1), a wrong password is refused, a directory entry never logs in as
 * a local administrator, the `%(user)s` filter form works, and switched off nothing is asked.
 * `adminSetting/syncLdapUsers` creates the directory's missing users and never touches an admin.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Captcha, User } from '../../models/accounts/schemas';
import { Option } from '../../models/settings/schemas';
import { startSlapd, LDAP_ADMIN_DN, LDAP_BASE, type TestSlapd } from '../helpers/slapd';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { configureAddressPolicy, forgetCachedReads } from '../../models/platform';

let slapd: TestSlapd;
let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  slapd = await startSlapd(
    [
      { uid: 'alice_ldap', cn: 'Alice', displayName: 'Alice From LDAP', password: 'Ldap-pw-1' },
      { uid: 'siteboss', cn: 'Boss', displayName: 'Not The Admin', password: 'Ldap-pw-2' },
      { uid: 'carol_ldap', cn: 'Carol', displayName: 'Carol C', password: 'Ldap-pw-3' },
      { uid: 'dave_ldap', cn: 'Dave', displayName: 'Dave D', password: 'Ldap-pw-4' },
      { uid: 'bigboss', cn: 'Big', displayName: 'Not The Other Admin', password: 'Ldap-pw-5' },
      { uid: 'erin_local', cn: 'Erin', displayName: 'Erin From LDAP', password: 'Ldap-pw-6' },
    ],
    'directory-admin-secret',
  );
  // slapd listens on loopback: the address policy must name it (ALLOW_PRIVATE_HOSTS).
  server = await startTestServer({
    env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
  });
  admin = await makeUser({ admin: true, username: 'siteboss', password: 'Local-admin-1' });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await slapd?.stop();
});

async function login(username: string, password: string) {
  const { captcha_id } = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
  const row = await Captcha.findOne({ captcha_id }).lean();
  return server.api.call('user/login', { username, password, captcha_id, captcha: row!.captcha });
}

async function saveLdap(open: number, form: Record<string, string | number> = {}) {
  await server.api.withToken(admin.user_token).ok('adminSetting/saveLdapConfig', {
    ldap_open: open,
    ldap_form: JSON.stringify({
      host: slapd.host,
      port: slapd.port,
      base_dn: LDAP_BASE,
      bind_dn: LDAP_ADMIN_DN,
      bind_password: slapd.adminPassword,
      user_field: 'uid',
      name_field: 'displayName',
      search_filter: '(objectClass=inetOrgPerson)',
      ...form,
    }),
  });
}

describe('LDAP login', () => {
  test('switched off, a directory password logs nobody in and no user is created', async () => {
    await saveLdap(0);
    expect((await login('alice_ldap', 'Ldap-pw-1')).body.error_code).toBe(10210);
    expect(await User.exists({ username: 'alice_ldap' })).toBeNull();
  });

  test('switched on, the first login creates the local user; the next finds the same one', async () => {
    await saveLdap(1);
    const first = await login('alice_ldap', 'Ldap-pw-1');
    expect(first.body.error_code).toBe(0);
    expect(first.body.data).toMatchObject({ username: 'alice_ldap', groupid: '2' });
    const row = await User.findOne({ username: 'alice_ldap' }).lean();
    expect(row).toMatchObject({ name: 'Alice From LDAP', is_sso: 1, groupid: 2 });
    const token = (first.body.data as { user_token: string }).user_token;
    expect((await server.api.withToken(token).ok<{ uid: string }>('user/info')).uid).toBe(
      String(row!.uid),
    );
    expect((await login('alice_ldap', 'Ldap-pw-1')).body.error_code).toBe(0);
    expect(await User.countDocuments({ username: 'alice_ldap' })).toBe(1);
  });

  test('a wrong directory password and an unknown name are refused (10210)', async () => {
    await saveLdap(1);
    expect((await login('alice_ldap', 'wrong-pw')).body.error_code).toBe(10210);
    expect((await login('nobody_here', 'Ldap-pw-1')).body.error_code).toBe(10210);
    expect(await User.exists({ username: 'nobody_here' })).toBeNull();
  });

  test('a directory entry named like a local administrator never logs in as that admin', async () => {
    await saveLdap(1);
    expect((await login('siteboss', 'Ldap-pw-2')).body.error_code).toBe(10210);
    expect((await User.findOne({ username: 'siteboss' }).lean())!.name).toBe('');
    expect((await login('siteboss', 'Local-admin-1')).body.error_code).toBe(0);
  });

  test('a filter with the %(user)s placeholder finds the user; the bind password stays secret', async () => {
    await saveLdap(1, {
      search_filter: '(&(objectClass=person)(uid=%(user)s))',
      bind_password: '',
    });
    const stored = JSON.parse(
      (await Option.findOne({ option_name: 'ldap_form' }).lean())!.option_value,
    );
    expect(stored.bind_password).toBe(slapd.adminPassword);
    const loaded = await server.api
      .withToken(admin.user_token)
      .ok<{ ldap_form: Record<string, unknown> }>('adminSetting/loadLdapConfig');
    expect(JSON.stringify(loaded)).not.toContain(slapd.adminPassword);
    expect((await login('carol_ldap', 'Ldap-pw-3')).body.error_code).toBe(0);
    expect((await User.findOne({ username: 'carol_ldap' }).lean())!.name).toBe('Carol C');
  });

  test('switching on with a refused service account or an unreachable directory is 10011, nothing stored', async () => {
    await saveLdap(1);
    const before = await Option.find({}, { _id: 0 }).sort({ option_name: 1 }).lean();
    const save = (form: Record<string, string | number>) =>
      server.api.withToken(admin.user_token).fail('adminSetting/saveLdapConfig', {
        ldap_open: 1,
        ldap_form: JSON.stringify({
          host: slapd.host,
          port: slapd.port,
          base_dn: LDAP_BASE,
          bind_dn: LDAP_ADMIN_DN,
          ...form,
        }),
      });
    expect((await save({ bind_password: 'not-the-secret' })).error_code).toBe(10011);
    expect((await save({ bind_password: slapd.adminPassword, port: 1 })).error_code).toBe(10011);
    expect(await Option.find({}, { _id: 0 }).sort({ option_name: 1 }).lean()).toEqual(before);
    expect((await login('carol_ldap', 'Ldap-pw-3')).body.error_code).toBe(0);
  });
});

describe('adminSetting/syncLdapUsers', () => {
  test('creates the missing directory users and leaves every local admin alone', async () => {
    await makeUser({ admin: true, username: 'BigBoss', password: 'Local-admin-2' });
    const erin = await makeUser({ username: 'Erin_Local', password: 'Local-user-1' });
    await saveLdap(1, { search_filter: '(uid=%(user)s)' });
    const directory = ['alice_ldap', 'carol_ldap', 'dave_ldap'];
    const missing = [];
    for (const username of directory)
      if (!(await User.exists({ username }))) missing.push(username);
    const admins = await User.find({ groupid: 1 }, { _id: 0 }).sort({ uid: 1 }).lean();

    const answer = await server.api
      .withToken(admin.user_token)
      .ok<{ sync_count: number }>('adminSetting/syncLdapUsers');

    expect(answer).toEqual({ sync_count: missing.length });
    expect(missing).toContain('dave_ldap');
    expect(await User.findOne({ username: 'dave_ldap' }).lean()).toMatchObject({
      name: 'Dave D',
      groupid: 2,
      is_sso: 1,
    });
    for (const username of directory) expect(await User.countDocuments({ username })).toBe(1);
    expect(await User.find({ groupid: 1 }, { _id: 0 }).sort({ uid: 1 }).lean()).toEqual(admins);
    expect(await User.exists({ username: { $in: ['bigboss', 'erin_local'] } })).toBeNull();
    expect(await User.findOne({ uid: Number(erin.uid) }).lean()).toMatchObject({
      username: 'Erin_Local',
      name: 'Erin From LDAP',
    });
    expect((await login('dave_ldap', 'Ldap-pw-4')).body.error_code).toBe(0);
  });

  test('a non-admin is refused (10103) and nothing is created', async () => {
    const member = await makeUser({ password: 'Local-user-2' });
    await User.deleteOne({ username: 'dave_ldap' });
    forgetCachedReads();
    const refused = await server.api
      .withToken(member.user_token)
      .fail('adminSetting/syncLdapUsers');
    expect(refused.error_code).toBe(10103);
    expect(await User.exists({ username: 'dave_ldap' })).toBeNull();
  });

  test('with LDAP switched off the answer is 10011 and nothing is created', async () => {
    await saveLdap(0);
    const refused = await server.api.withToken(admin.user_token).fail('adminSetting/syncLdapUsers');
    expect(refused.error_code).toBe(10011);
    expect(await User.exists({ username: 'dave_ldap' })).toBeNull();
  });
});

describe('the address policy (ALLOW_PRIVATE_HOSTS)', () => {
  test('a loopback directory not on the allow-list is never asked: saving names the address, a login says why without it', async () => {
    await saveLdap(1);
    configureAddressPolicy([]);
    try {
      const saved = await server.api
        .withToken(admin.user_token)
        .call('adminSetting/saveLdapConfig', {
          ldap_open: 1,
          ldap_form: JSON.stringify({
            host: slapd.host,
            port: slapd.port,
            base_dn: LDAP_BASE,
            bind_dn: LDAP_ADMIN_DN,
            bind_password: slapd.adminPassword,
            user_field: 'uid',
            search_filter: '(objectClass=person)',
          }),
        });
      expect(saved.body).toEqual({
        error_code: 10403,
        error_message: 'LDAP does not connect to 127.0.0.1: a loopback address',
      });
      const stored = JSON.parse(
        (await Option.findOne({ option_name: 'ldap_form' }).lean())!.option_value,
      );
      expect(stored.search_filter).toBe('(objectClass=inetOrgPerson)');

      const refused = await login('alice_ldap', 'Ldap-pw-1');
      expect(refused.body.error_code).toBe(10011);
      expect(refused.body.error_message).toMatch(/private address/);
      expect(refused.body.error_message).not.toContain('127.0.0.1');
      const stranger = await login('not_in_quire', 'Ldap-pw-1');
      expect(stranger.body.error_code).toBe(10011);
      expect(await User.exists({ username: 'not_in_quire' })).toBeNull();
    } finally {
      configureAddressPolicy(['127.0.0.1']);
    }
    expect((await login('alice_ldap', 'Ldap-pw-1')).body.error_code).toBe(0);
  });
});
