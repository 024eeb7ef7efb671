/**
 * ShowDoc's clients and settings working unchanged, and the last safety gaps closed (issue 32),
 * over real HTTP:
 * - #1 the member picker (`user/allUser`) lists the people one works with for an empty query,
 *   everyone for an admin or when the site opens its directory (the default while registration
 *   is closed), each row with `value`;
 * - #2 `adminUpdate/checkUpdate` answers without a login (no feed here: the running version only)
 *   while the rest of the back office still asks for one;
 * - #3 the spec's setting names `open_api_key` / `open_api_host` work both ways;
 * - #4 type-3 items are read-only in the web client (item/info flags), written through the API;
 * - #12 ids are digits and nothing else, while "not given" stays what ShowDoc's clients send.
 * (#11, the captcha burned by a wrong guess, is in user.test.ts beside the other captcha rules.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { deleteSetting, setSettings } from '../../models/settings/settings';
import { serverSuite } from '../helpers/apiSuite';
import { type AiStub, startAiStub } from '../helpers/assistantServers';
import { addMember, addTeamMember, makeItem, makeTeam } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';

// The AI stub listens on 127.0.0.1: allowed explicitly, as an admin would for a local model
// (HTTP_RELAY_ALLOW_HOSTS: the address allow-list's setting, issue 32 #9 keeps the name).
const suite = serverSuite({ env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' } });
let stub: AiStub;

beforeAll(async () => {
  stub = await startAiStub();
});
afterAll(async () => {
  await stub.close();
});

interface Person {
  uid: string;
  username: string;
  name: string | null;
  value: string;
}

const names = (rows: Person[]) => rows.map((r) => r.username).sort();

describe('#1 user/allUser: the member picker ShowDoc opens with an empty query', () => {
  let me: TestUser;
  let itemMate: TestUser;
  let teamMate: TestUser;
  let itemOwner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    [me, itemMate, teamMate, itemOwner, stranger] = await Promise.all([
      makeUser({ name: 'Me' }),
      makeUser({ name: 'Item mate' }),
      makeUser(),
      makeUser(),
      makeUser(),
    ]);
    const mine = await makeItem(me);
    await addMember(mine.item_id, itemMate, 1);
    const team = await makeTeam(me);
    await addTeamMember(team.team_id, teamMate);
    // An item someone else owns, where I am a read-only member: its owner works with me too.
    const theirs = await makeItem(itemOwner);
    await addMember(theirs.item_id, me, 0);
  });
  afterEach(async () => {
    await deleteSetting('user_directory_open');
    await deleteSetting('register_open');
  });

  test('registration open: the people I work with (items, teams), each with value = username; no stranger', async () => {
    const rows = await suite.as(me).ok<Person[]>('user/allUser', { username: '' });
    expect(names(rows)).toEqual([itemMate.username, teamMate.username, itemOwner.username].sort());
    expect(rows.find((r) => r.username === itemMate.username)).toEqual({
      uid: String(itemMate.uid),
      username: itemMate.username,
      name: 'Item mate',
      value: itemMate.username,
    });
    // Without the parameter at all, and for the item mate (who works with me only).
    expect(names(await suite.as(me).ok<Person[]>('user/allUser'))).toHaveLength(3);
    expect(names(await suite.as(itemMate).ok<Person[]>('user/allUser', { username: '' }))).toEqual([
      me.username,
    ]);
    expect(await suite.as(stranger).ok('user/allUser', { username: '' })).toEqual([]);
  });

  test('a short query narrows my people by prefix and still finds one exact username', async () => {
    const prefix = itemMate.username.slice(0, 2);
    const rows = await suite.as(me).ok<Person[]>('user/allUser', { username: prefix });
    expect(names(rows)).toContain(itemMate.username);
    expect(names(rows)).not.toContain(stranger.username);
  });

  test('a site admin sees everyone', async () => {
    const admin = await makeUser({ admin: true });
    const rows = await suite.as(admin).ok<Person[]>('user/allUser', { username: '' });
    expect(names(rows)).toEqual(
      expect.arrayContaining([me.username, stranger.username, admin.username]),
    );
  });

  test('registration closed: everyone is findable by default; the setting turns it off and on', async () => {
    await setSettings({ register_open: '0' });
    const all = await suite.as(stranger).ok<Person[]>('user/allUser', { username: '' });
    expect(names(all)).toEqual(expect.arrayContaining([me.username, itemMate.username]));
    expect(all.every((r) => r.value === r.username)).toBe(true);

    const admin = await makeUser({ admin: true });
    const adminApi = suite.as(admin);
    expect(await adminApi.ok('adminSetting/loadConfig')).toMatchObject({
      user_directory_open: '1',
    });
    await adminApi.ok('adminSetting/saveConfig', { user_directory_open: 0 });
    expect(await suite.as(stranger).ok('user/allUser', { username: '' })).toEqual([]);

    await setSettings({ register_open: '1' });
    await adminApi.ok('adminSetting/saveConfig', { user_directory_open: 1 });
    expect(await adminApi.ok('adminSetting/loadConfig')).toMatchObject({
      register_open: '1',
      user_directory_open: '1',
    });
    expect(names(await suite.as(stranger).ok<Person[]>('user/allUser', { username: '' }))).toEqual(
      expect.arrayContaining([me.username]),
    );
  });

  test('visitors are refused; a bad setting value is refused', async () => {
    expect((await suite.server.api.fail('user/allUser', { username: '' })).error_code).toBe(10102);
    const admin = await makeUser({ admin: true });
    const bad = await suite.as(admin).fail('adminSetting/saveConfig', { user_directory_open: 'x' });
    expect(bad.error_code).toBe(10101);
  });
});

describe('#2 the back office first calls, without a token', () => {
  test('adminUpdate/checkUpdate answers the running version (no feed configured)', async () => {
    const { version } = await suite.server.api.ok<{ version: string }>('common/version');
    const res = await suite.server.api.call('adminUpdate/checkUpdate', {}, { method: 'GET' });
    expect(res.body).toEqual({ error_code: 0, data: { version, new_version: '', url: '' } });
  });

  test('nothing else of the back office loosens', async () => {
    for (const action of [
      'adminSetting/loadConfig',
      'adminSetting/saveConfig',
      'adminUser/getList',
      'adminItem/getList',
      'adminUpdate/download',
      'adminUpdate/updateFiles',
    ])
      expect([action, (await suite.server.api.fail(action)).error_code]).toEqual([action, 10102]);
    const user = await makeUser();
    expect((await suite.as(user).fail('adminSetting/loadConfig')).error_code).toBe(10103);
  });
});

describe('#3 the spec setting names open_api_key / open_api_host', () => {
  const KEY = 'sk-spec-name-0123456789';
  afterEach(async () => {
    for (const name of ['open_ai_key', 'open_ai_host', 'open_api_key', 'open_api_host'])
      await deleteSetting(name);
  });

  async function aiAnswers(user: TestUser): Promise<string> {
    const body = new URLSearchParams({ content: 'Say hello', user_token: user.user_token });
    const response = await fetch(`${suite.server.url}/api/ai/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    return response.text();
  }

  test('saved under the spec names: ai/create works and loadConfig answers both spellings', async () => {
    const admin = await makeUser({ admin: true });
    await suite.as(admin).ok('adminSetting/saveConfig', {
      open_api_key: KEY,
      open_api_host: stub.url,
    });
    stub.answer({ pieces: ['Hello from the spec names'] });
    const before = stub.requests.length;
    expect(await aiAnswers(admin)).toContain('Hello from the spec names');
    expect(stub.requests).toHaveLength(before + 1);
    expect(stub.requests[before].authorization).toBe(`Bearer ${KEY}`);

    const config = await suite.as(admin).ok<Record<string, unknown>>('adminSetting/loadConfig');
    expect(config).toMatchObject({
      open_ai_host: stub.url,
      open_api_host: stub.url,
      open_ai_key: '',
      open_ai_key_set: 1,
      open_api_key: '',
      open_api_key_set: 1,
    });
  });

  test("saved under Quire's names: the spec names answer them; a later save under either wins", async () => {
    const admin = await makeUser({ admin: true });
    // A ShowDoc database moved over holds the spec names only.
    await setSettings({ open_api_host: 'https://old.example.com' });
    await suite.as(admin).ok('adminSetting/saveConfig', {
      open_ai_key: KEY,
      open_ai_host: stub.url,
    });
    expect(await suite.as(admin).ok('adminSetting/loadConfig')).toMatchObject({
      open_api_host: stub.url,
      open_api_key_set: 1,
    });
    stub.answer({ pieces: ['Hello again'] });
    expect(await aiAnswers(admin)).toContain('Hello again');

    await suite
      .as(admin)
      .ok('adminSetting/saveConfig', { open_api_host: 'https://new.example.com' });
    expect(await suite.as(admin).ok('adminSetting/loadConfig')).toMatchObject({
      open_ai_host: 'https://new.example.com',
      open_api_host: 'https://new.example.com',
    });
    // Cleared under either name: the old ShowDoc value does not come back.
    await suite.as(admin).ok('adminSetting/saveConfig', { open_ai_host: '' });
    expect(await suite.as(admin).ok('adminSetting/loadConfig')).toMatchObject({
      open_ai_host: '',
      open_api_host: '',
    });
  });

  test('a bad host under the spec name is refused like under the Quire name', async () => {
    const admin = await makeUser({ admin: true });
    const bad = await suite.as(admin).fail('adminSetting/saveConfig', {
      open_api_host: 'ftp://nope',
    });
    expect(bad.error_code).toBe(10101);
    expect(bad.error_message).toContain('open_ai_host');
  });
});

describe('#4 type-3 items are read-only in the web client, written through the API as on ShowDoc', () => {
  test('item/add item_type=3 is accepted; item/info gives nobody edit or manage; the RunApi client still writes', async () => {
    const owner = await makeUser();
    const editor = await makeUser();
    const admin = await makeUser({ admin: true });
    const { item_id } = await suite.as(owner).ok<{ item_id: number }>('item/add', {
      item_name: 'RunApi project',
      item_type: 3,
    });
    expect(await Item.findOne({ item_id }, { item_type: 1 }).lean()).toMatchObject({
      item_type: 3,
    });
    await addMember(item_id, editor, 1);

    // What the web client shows buttons by: no edit, no manage, for everyone (spec 002 §6).
    for (const user of [owner, editor, admin]) {
      const info = await suite.as(user).ok<Record<string, unknown>>('item/info', { item_id });
      expect(info).toMatchObject({
        item_type: '3',
        item_edit: false,
        item_manage: false,
        ItemPermn: false,
        ItemCreator: false,
      });
    }
    // ShowDoc's RunApi client writes its pages with the user's token (page/save, as ShowDoc's
    // server accepts): an editor and the owner still may; a stranger may not.
    const saved = await suite.as(editor).ok<{ page_id: number | string }>('page/save', {
      item_id,
      page_title: 'GET /users',
      page_content: JSON.stringify({ info: { url: '/users', method: 'get', type: 'api' } }),
    });
    const pageId = Number(saved.page_id);
    await suite.as(owner).ok('page/save', {
      item_id,
      page_id: pageId,
      page_title: 'GET /users',
      page_content: JSON.stringify({ info: { url: '/users/v2', method: 'get', type: 'api' } }),
    });
    expect(await suite.as(owner).ok('page/info', { page_id: pageId })).toMatchObject({
      page_title: 'GET /users',
    });
    const stranger = await makeUser();
    expect(
      (
        await suite.as(stranger).fail('page/save', {
          item_id,
          page_id: pageId,
          page_title: 'x',
          page_content: 'y',
        })
      ).error_code,
    ).not.toBe(0);
    await suite.as(owner).ok('item/delete', { item_id, password: owner.password });
  });

  test('a regular item of the same owner stays editable', async () => {
    const owner = await makeUser();
    const { item_id } = await suite.as(owner).ok<{ item_id: number }>('item/add', {
      item_name: 'Regular',
      item_type: 1,
    });
    expect(await suite.as(owner).ok('item/info', { item_id })).toMatchObject({
      item_edit: true,
      item_manage: true,
    });
  });
});

describe('#12 ids are positive decimal integers and nothing else', () => {
  const BAD = ['1 OR 1=1', '1e308', '1abc', ' 1', '1 ', '-1', '0x1', '+1', '1.0', '１'];

  test('every lenient spelling is a parameter error, on contract and hand-read parameters', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner);
    const page = await makePage(owner, item_id, { title: 'P' });
    const api = suite.as(owner);
    // Each spelling next to the real id, so an intval reading would find the item or page.
    for (const bad of BAD) {
      const spelled = (id: number) => bad.replace('1', String(id));
      for (const [action, params, name] of [
        ['member/getList', { item_id: spelled(item_id) }, 'item_id'],
        ['page/info', { page_id: spelled(page.page_id) }, 'page_id'],
        ['catalog/catListGroup', { item_id: spelled(item_id) }, 'item_id'],
      ] as const) {
        const answer = await api.fail(action, params);
        expect([action, bad, answer]).toEqual([
          action,
          bad,
          expect.objectContaining({
            error_code: 10101,
            error_message: `Invalid parameter: ${name}`,
          }),
        ]);
      }
    }
    const admin = await makeUser({ admin: true });
    const refused = await suite
      .as(admin)
      .fail('adminUser/deleteUser', { uid: `${owner.uid} OR 1=1` });
    expect(refused).toMatchObject({ error_code: 10101, error_message: 'Invalid parameter: uid' });
    expect(await api.ok('member/getList', { item_id: String(item_id) })).toBeDefined();
  });

  test('a JSON body: integers pass, 1e308, fractions, booleans and negatives do not', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner);
    const json = (body: object) =>
      suite.server.request('/api/member/getList', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, user_token: owner.user_token }),
      });
    const ok = await json({ item_id });
    expect((await ok.json()).error_code).toBe(0);
    for (const value of [1e308, item_id + 0.5, true, -item_id, [item_id], { $gt: 0 }]) {
      const res = await json({ item_id: value });
      expect([value, await res.json()]).toEqual([
        value,
        { error_code: 10101, error_message: 'Invalid parameter: item_id' },
      ]);
    }
  });

  test('absent, empty, 0, "undefined" and "null" still mean "not given", as ShowDoc clients send them', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner);
    const api = suite.as(owner);
    // item/myList: item_group_id optional (0 = every item).
    for (const given of [
      {},
      { item_group_id: '' },
      { item_group_id: '0' },
      { item_group_id: 'undefined' },
    ])
      expect(
        (await api.ok<{ item_id: string }[]>('item/myList', given)).map((i) => Number(i.item_id)),
      ).toContain(item_id);
    // -1 is the starred items (ShowDoc's item list and Quire's send it); no other negative.
    await api.ok('item/star', { item_id });
    for (const starred of ['-1', -1])
      expect(
        (await api.ok<{ item_id: string }[]>('item/myList', { item_group_id: starred })).map((i) =>
          Number(i.item_id),
        ),
      ).toEqual([item_id]);
    expect((await api.fail('item/myList', { item_group_id: '-2' })).error_code).toBe(10101);
    // ShowDoc's reader sends its route's page part to item/info, a custom page id included.
    for (const page of ['intro-page', '0', ''])
      expect(
        await api.ok('item/info', { item_id, default_page_id: page, page_id: page }),
      ).toMatchObject({ item_id: String(item_id) });
    // page/info with no page: the ordinary "not found" answer, not a parameter error.
    for (const given of [{}, { page_id: '' }, { page_id: 'null' }, { page_id: '0' }]) {
      const answer = await api.fail('page/info', given);
      expect(answer.error_message).not.toMatch(/Invalid parameter/);
    }
  });
});
