/**
 * The back office over real HTTP: adminUser/*, adminItem/*, adminSetting/* — who may call them
 * (on every URL form), what they answer, what they refuse, that secrets are write-only, and that
 * a saved setting takes effect at once (registration, home page, history count, watermark).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { events, type DomainEvents } from '../../models/platform';
import { Captcha } from '../../models/accounts/schemas';
import { Item } from '../../models/items/schemas';
import { ItemMember } from '../../models/members/schemas';
import { Option } from '../../models/settings/schemas';
import { HISTORY_TRIM_EVERY } from '../../models/pages/pageHistory';
import { PageHistory } from '../../models/pages/schemas';
import { User } from '../../models/accounts/schemas';
import { addMember, makeItem } from '../helpers/factories';
import { makePage, updatePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
const { as } = suite;
let admin: TestUser;
let alice: TestUser;

beforeAll(async () => {
  admin = await makeUser({ admin: true });
  alice = await makeUser({ name: 'Alice' });
});

async function captcha(): Promise<{ captcha_id: number; captcha: string }> {
  const { captcha_id } = await suite.server.api.ok<{ captcha_id: number }>('common/createCaptcha');
  const row = await Captcha.findOne({ captcha_id }).lean();
  return { captcha_id, captcha: row!.captcha };
}

const ADMIN_ACTIONS = [
  'adminUser/getList',
  'adminUser/addUser',
  'adminUser/deleteUser',
  'adminItem/getList',
  'adminItem/deleteItem',
  'adminItem/hardDeleteItem',
  'adminItem/attorn',
  'adminSetting/loadConfig',
  'adminSetting/saveConfig',
  'adminSetting/loadLdapConfig',
  'adminSetting/saveLdapConfig',
  'adminSetting/syncLdapUsers',
  'adminSetting/loadOauth2Config',
  'adminSetting/saveOauth2Config',
  'adminSetting/getLoginSecretKey',
  'adminSetting/resetLoginSecretKey',
  'attachment/getAllList',
  'attachment/deleteAttachment',
];

describe('who may call the back office', () => {
  test.each(['api', 'server', 'index.php'] as const)(
    'anonymous → 10102, ordinary user → 10103 on /%s URLs, and nothing changes',
    async (form) => {
      const options = await Option.countDocuments();
      const users = await User.countDocuments();
      for (const action of ADMIN_ACTIONS) {
        const params = { register_open: 0, username: 'intruder', password: 'x', uid: admin.uid };
        expect((await suite.server.api.fail(action, params, { form })).error_code).toBe(10102);
        expect((await as(alice).fail(action, params, { form })).error_code).toBe(10103);
      }
      expect(await Option.countDocuments()).toBe(options);
      expect(await User.countDocuments()).toBe(users);
      expect(await User.exists({ uid: admin.uid })).toBeTruthy();
    },
  );
});

describe('adminUser', () => {
  test('getList: newest first, searchable, formatted times, never a password hash', async () => {
    const bob = await makeUser({ username: `bob_${Date.now()}`, name: 'Bob' });
    const list = await as(admin).ok<{ total: number; users: Record<string, string>[] }>(
      'adminUser/getList',
      { username: bob.username, page: 1, count: 7 },
    );
    expect(list.total).toBe(1);
    expect(list.users[0]).toMatchObject({
      uid: String(bob.uid),
      username: bob.username,
      name: 'Bob',
      groupid: '2',
      last_login_time: '',
    });
    expect(list.users[0].reg_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const all = await as(admin).ok<{ total: number; users: Record<string, string>[] }>(
      'adminUser/getList',
      { page: 1, count: 2 },
    );
    expect(all.users).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(Number(all.users[0].uid)).toBeGreaterThan(Number(all.users[1].uid));
    for (const row of all.users) {
      expect(row).not.toHaveProperty('password');
      expect(row).not.toHaveProperty('salt');
    }
  });

  test('addUser creates an ordinary user who can log in; editing keeps the username', async () => {
    const username = `carol_${Date.now()}`;
    await as(admin).ok('adminUser/addUser', { username, password: 'Carol-pw-1', name: 'Carol' });
    const row = await User.findOne({ username }).lean();
    expect(row).toMatchObject({ groupid: 2, name: 'Carol' });
    const login = async (password: string) =>
      suite.server.api.call('user/loginByVerify', { username, password, ...(await captcha()) });
    expect((await login('Carol-pw-1')).body.error_code).toBe(0);

    // Edit: new name, blank password keeps it; a sent username is ignored.
    await as(admin).ok('adminUser/addUser', {
      uid: row!.uid,
      username: 'renamed_carol',
      name: 'Carol B',
      password: '',
    });
    expect(await User.findOne({ uid: row!.uid }).lean()).toMatchObject({
      username,
      name: 'Carol B',
    });
    expect((await login('Carol-pw-1')).body.error_code).toBe(0);
    await as(admin).ok('adminUser/addUser', { uid: row!.uid, password: 'Carol-pw-2' });
    expect((await login('Carol-pw-1')).body.error_code).not.toBe(0);
    expect((await login('Carol-pw-2')).body.error_code).toBe(0);
  });

  test('addUser refuses a taken name, a bad name, a missing password, an unknown uid', async () => {
    const users = await User.countDocuments();
    expect(
      (await as(admin).fail('adminUser/addUser', { username: alice.username, password: 'p1' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(admin).fail('adminUser/addUser', { username: 'a b<c>', password: 'p1' }))
        .error_code,
    ).toBe(10101);
    expect((await as(admin).fail('adminUser/addUser', { username: 'nopassword' })).error_code).toBe(
      10101,
    );
    expect((await as(admin).fail('adminUser/addUser', { password: 'p1' })).error_code).toBe(10101);
    expect(
      (await as(admin).fail('adminUser/addUser', { uid: 99_999_999, name: 'x' })).error_code,
    ).toBe(10209);
    expect(await User.countDocuments()).toBe(users);
  });

  test('deleteUser removes a user, their memberships and tokens', async () => {
    const dave = await makeUser();
    const item = await makeItem(alice);
    await addMember(item.item_id, dave, 1);
    const seen: DomainEvents['membership.changed'][] = [];
    const stop = events.subscribe('membership.changed', (e) => void seen.push(e));
    await as(admin).ok('adminUser/deleteUser', { uid: dave.uid });
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(await User.exists({ uid: dave.uid })).toBeNull();
    expect(await ItemMember.exists({ uid: dave.uid })).toBeNull();
    expect((await as(dave).fail('user/info')).error_code).toBe(10102);
    expect(seen).toContainEqual(
      expect.objectContaining({ itemId: item.item_id, uids: [dave.uid], change: 'removed' }),
    );
  });

  test('deleteUser never deletes an admin, yourself, an owner of items, or a missing user', async () => {
    const otherAdmin = await makeUser({ admin: true });
    const owner = await makeUser();
    await makeItem(owner);
    expect((await as(admin).fail('adminUser/deleteUser', { uid: otherAdmin.uid })).error_code).toBe(
      10101,
    );
    expect((await as(admin).fail('adminUser/deleteUser', { uid: admin.uid })).error_code).toBe(
      10101,
    );
    const refused = await as(admin).fail('adminUser/deleteUser', { uid: owner.uid });
    expect(refused.error_message).toMatch(/owns items/);
    expect((await as(admin).fail('adminUser/deleteUser', { uid: 0 })).error_code).toBe(10101);
    expect((await as(admin).fail('adminUser/deleteUser', { uid: 99_999_999 })).error_code).toBe(
      10209,
    );
    for (const user of [otherAdmin, owner, admin])
      expect(await User.exists({ uid: user.uid })).toBeTruthy();
  });
});

describe('adminItem', () => {
  test('getList filters by name and owner, counts members, shows privacy, hides the password', async () => {
    const tag = `Zeta${Date.now()}`;
    const open = await makeItem(alice, { item_name: `${tag} open` });
    await makeItem(alice, { item_name: `${tag} private`, password: 'visit-pw' });
    await addMember(open.item_id, admin, 1);
    const list = await as(admin).ok<{ total: number; items: Record<string, unknown>[] }>(
      'adminItem/getList',
      { item_name: tag, username: alice.username, page: 1, count: 7 },
    );
    expect(list.total).toBe(2);
    const byName = new Map(list.items.map((i) => [i.item_name, i]));
    expect(byName.get(`${tag} open`)).toMatchObject({
      is_private: 0,
      member_num: 1,
      username: alice.username,
    });
    expect(byName.get(`${tag} private`)).toMatchObject({
      is_private: 1,
      member_num: 0,
      password: '',
    });
    expect(String(byName.get(`${tag} open`)!.addtime)).toMatch(/^\d{4}-\d\d-\d\d /);
    const none = await as(admin).ok<{ total: number }>('adminItem/getList', {
      item_name: tag,
      username: 'nobody-here',
    });
    expect(none.total).toBe(0);
  });

  test('attorn gives the item to a user by name; an unknown name is 10209 and changes nothing', async () => {
    const item = await makeItem(alice);
    const bob = await makeUser();
    expect(
      (
        await as(admin).fail('adminItem/attorn', {
          item_id: item.item_id,
          username: 'no_such_user',
        })
      ).error_code,
    ).toBe(10209);
    expect((await Item.findOne({ item_id: item.item_id }).lean())!.uid).toBe(alice.uid);
    const row = await as(admin).ok<{ uid: string; username: string }>('adminItem/attorn', {
      item_id: item.item_id,
      username: bob.username,
    });
    expect(row).toMatchObject({ uid: String(bob.uid), username: bob.username });
    const mine = await as(bob).ok<{ item_id: string }[]>('item/myList');
    expect(mine.map((i) => i.item_id)).toContain(String(item.item_id));
  });

  test('deleteItem moves the item to the bin (listed with is_del=1); twice is 10101', async () => {
    const item = await makeItem(alice);
    await as(admin).ok('adminItem/deleteItem', { item_id: item.item_id });
    expect((await Item.findOne({ item_id: item.item_id }).lean())!.is_del).toBe(1);
    expect(
      (await as(admin).fail('adminItem/deleteItem', { item_id: item.item_id })).error_code,
    ).toBe(10101);
    const deleted = await as(admin).ok<{ items: { item_id: string; del_time: string }[] }>(
      'adminItem/getList',
      { is_del: 1, item_name: item.item_name },
    );
    expect(deleted.items.map((i) => i.item_id)).toEqual([String(item.item_id)]);
    expect(deleted.items[0].del_time).not.toBe('');
  });
});

describe('adminSetting', () => {
  test('loadConfig answers the effective defaults before anything is saved', async () => {
    const config = await as(admin).ok<Record<string, unknown>>('adminSetting/loadConfig');
    expect(config).toMatchObject({
      register_open: '1',
      home_page: '1',
      history_version_count: 20,
      show_watermark: '0',
      site_url: '',
      open_ai_key: '',
      open_ai_key_set: 0,
    });
  });

  test('secrets are write-only: loads mask them, a blank save keeps them', async () => {
    await as(admin).ok(
      'adminSetting/saveConfig',
      {
        open_ai_key: 'sk-ai-secret',
        oss_open: 1,
        oss_setting: { oss_type: 's3_storage', bucket: 'docs', key: 'AKID', secret: 'oss-secret' },
      },
      { json: true },
    );
    await as(admin).ok(
      'adminSetting/saveConfig',
      {
        open_ai_key: '',
        oss_setting: { oss_type: 's3_storage', bucket: 'docs2', key: 'AKID', secret: '' },
      },
      { json: true },
    );
    const config = await as(admin).ok<Record<string, unknown>>('adminSetting/loadConfig');
    expect(JSON.stringify(config)).not.toMatch(/sk-ai-secret|oss-secret/);
    expect(config).toMatchObject({ open_ai_key: '', open_ai_key_set: 1, oss_open: '1' });
    expect(config.oss_setting).toMatchObject({
      bucket: 'docs2',
      key: 'AKID',
      secret: '',
      secret_set: 1,
    });
    const stored = await Option.findOne({ option_name: 'oss_setting' }).lean();
    expect(JSON.parse(stored!.option_value).secret).toBe('oss-secret');
    expect((await Option.findOne({ option_name: 'open_ai_key' }).lean())!.option_value).toBe(
      'sk-ai-secret',
    );
    await as(admin).ok('adminSetting/saveConfig', { oss_open: 0 });

    await as(admin).ok('adminSetting/saveLdapConfig', {
      ldap_open: 0,
      ldap_form: {
        host: 'ldap.example',
        base_dn: 'dc=example',
        bind_dn: 'cn=admin',
        bind_password: 'ldap-secret',
      },
    });
    await as(admin).ok('adminSetting/saveOauth2Config', {
      oauth2_open: 1,
      oauth2_form: {
        client_id: 'cid',
        client_secret: 'oauth-secret',
        host: 'sso.example',
        authorize_path: '/a',
        token_path: '/t',
        userinfo_path: '/u',
      },
    });
    await as(admin).ok('adminSetting/saveOauth2Config', {
      oauth2_open: 1,
      oauth2_form: {
        client_id: 'cid2',
        client_secret: '',
        host: 'sso.example',
        authorize_path: '/a',
        token_path: '/t',
        userinfo_path: '/u',
      },
    });
    const ldap = await as(admin).ok<{ ldap_open: string; ldap_form: Record<string, unknown> }>(
      'adminSetting/loadLdapConfig',
    );
    const oauth = await as(admin).ok<{ oauth2_open: string; oauth2_form: Record<string, unknown> }>(
      'adminSetting/loadOauth2Config',
    );
    expect(JSON.stringify([ldap, oauth])).not.toMatch(/ldap-secret|oauth-secret/);
    expect(ldap.ldap_form).toMatchObject({
      host: 'ldap.example',
      port: '389',
      version: '3',
      search_filter: '(cn=*)',
      bind_password_set: 1,
    });
    expect(oauth).toMatchObject({
      oauth2_open: '1',
      oauth2_form: { client_id: 'cid2', protocol: 'https', client_secret_set: 1 },
    });
    const storedOauth = await Option.findOne({ option_name: 'oauth2_form' }).lean();
    expect(JSON.parse(storedOauth!.option_value).client_secret).toBe('oauth-secret');
    // The login page's entrance still reads the switch.
    expect((await suite.server.api.ok<{ oauth2_open: string }>('user/oauthInfo')).oauth2_open).toBe(
      '1',
    );
    await as(admin).ok('adminSetting/saveOauth2Config', { oauth2_open: 0 });
  });

  test('bad values are refused with 10101 and nothing of that save is stored', async () => {
    const before = await Option.find({}, { _id: 0 }).sort({ option_name: 1 }).lean();
    const bad = [
      { history_version_count: 0, beian: 'changed' },
      { history_version_count: 'many', beian: 'changed' },
      { site_url: 'javascript:alert(1)', beian: 'changed' },
      { home_page: 7, beian: 'changed' },
      { home_page: 3, home_item: 987654321, beian: 'changed' },
      { home_page: 4, beian: 'changed' },
      { register_open: 'maybe', beian: 'changed' },
      { oss_open: 1, oss_setting: { oss_type: 'ftp', bucket: 'b' }, beian: 'changed' },
      { beian: { $ne: 1 } },
    ];
    for (const params of bad)
      expect(
        (await as(admin).fail('adminSetting/saveConfig', params, { json: true })).error_code,
      ).toBe(10101);
    expect(
      (
        await as(admin).fail('adminSetting/saveLdapConfig', {
          ldap_open: 1,
          ldap_form: { host: 'h', base_dn: 'dc=x', port: 'abc' },
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(admin).fail('adminSetting/saveOauth2Config', {
          oauth2_open: 1,
          oauth2_form: { client_id: 'c' },
        })
      ).error_code,
    ).toBe(10101);
    expect(await Option.find({}, { _id: 0 }).sort({ option_name: 1 }).lean()).toEqual(before);
  });

  test('the login secret key is made once, returned again, and changed by a reset', async () => {
    const first = await as(admin).ok<{ login_secret_key: string }>(
      'adminSetting/getLoginSecretKey',
    );
    expect(first.login_secret_key).toMatch(/^[0-9a-f]{32}$/);
    expect(await as(admin).ok('adminSetting/getLoginSecretKey')).toEqual(first);
    const reset = await as(admin).ok<{ login_secret_key: string }>(
      'adminSetting/resetLoginSecretKey',
    );
    expect(reset.login_secret_key).toMatch(/^[0-9a-f]{32}$/);
    expect(reset.login_secret_key).not.toBe(first.login_secret_key);
  });

  test('each setting takes effect at once: registration, home page, watermark, history count', async () => {
    const changes: string[][] = [];
    const stop = events.subscribe('settings.changed', ({ names }) => void changes.push(names));
    const home = await makeItem(alice);
    await as(admin).ok('adminSetting/saveConfig', {
      register_open: 0,
      home_page: 3,
      home_item: home.item_id,
      show_watermark: 1,
      history_version_count: 2,
    });
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(changes.flat()).toEqual(
      expect.arrayContaining(['register_open', 'home_page', 'home_item', 'show_watermark']),
    );
    try {
      const landing = await suite.server.api.ok<Record<string, unknown>>('common/homePageSetting');
      expect(landing).toMatchObject({
        register_open: 0,
        home_page: '3',
        home_item: String(home.item_id),
      });
      const register = await suite.server.api.call('user/register', {
        username: `closed_${Date.now()}`,
        password: 'pw-1',
        confirm_password: 'pw-1',
        ...(await captcha()),
      });
      expect(register.body.error_code).toBe(10101);
      const info = await as(alice).ok<{ show_watermark: number }>('item/info', {
        item_id: home.item_id,
      });
      expect(info.show_watermark).toBe(1);
      const page = await makePage(alice, home.item_id);
      for (const n of [1, 2, 3, 4]) await updatePage(alice, page, `version ${n}`);
      const listed = await as(alice).ok<Array<{ page_content: string }>>('page/history', {
        page_id: page.page_id,
      });
      expect(listed.map((v) => v.page_content)).toEqual(['version 3', 'version 2']);
      // At rest a page holds at most HISTORY_TRIM_EVERY - 1 versions more between trims.
      expect(await PageHistory.countDocuments({ page_id: page.page_id })).toBeLessThanOrEqual(
        2 + HISTORY_TRIM_EVERY - 1,
      );
    } finally {
      await as(admin).ok('adminSetting/saveConfig', {
        register_open: 1,
        home_page: 1,
        show_watermark: 0,
        history_version_count: 20,
      });
    }
    expect(
      (await suite.server.api.ok<{ register_open: number }>('common/homePageSetting'))
        .register_open,
    ).toBe(1);
  });
});
