/**
 * Every /api call ShowDoc 3.9's own web front end can make (test/api/fixtures/
 * showdocFrontEndCalls.json, read from its web_src/) reaches an action in Quire: driven with the
 * parameters the front end sends, logged in as the owner of a real item with a catalog, pages,
 * a version, an attachment, a member and a team, none answers 10404 (or HTTP 404). Features
 * Quire leaves out answer as ShowDoc does with them switched off; those answers are checked here
 * too, field for field.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fixture from './fixtures/showdocFrontEndCalls.json';
import { addMember, addTeamMember, bindTeamItem, makeItem, makeTeam } from '../helpers/factories';
import { makeCatalog, makePage, updatePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { postMultipart, signOf } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';
import { PageHistory } from '../../models/pages/schemas';
import { TeamItemMember } from '../../models/members/schemas';
import { UploadFile } from '../../models/files/schemas';
import { createCaptcha } from '../../models/accounts';

interface Entry {
  call: string;
  params: string[];
  from: string[];
}

let server: TestServer;
let owner: TestUser;
let values: Record<string, string | number>;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  owner = await makeUser({ admin: true, name: 'Owner' });
  const member = await makeUser();
  const teammate = await makeUser();
  const { item_id } = await makeItem(owner, { item_name: 'Front end' });
  const catId = await makeCatalog(owner, item_id, 'Guide');
  const page = await makePage(owner, item_id, { catId, title: 'Intro' });
  await updatePage(owner, page, 'second version');
  const history = await PageHistory.findOne({ page_id: page.page_id }).lean();
  const itemMemberId = await addMember(item_id, member, 1);
  const { team_id: teamId } = await makeTeam(owner, 'Writers');
  await addTeamMember(teamId, teammate);
  const teamItemId = await bindTeamItem(teamId, item_id, owner);
  const teamItemMember = await TeamItemMember.findOne({ item_id }).lean();
  const upload = await postMultipart(server.url, 'page/upload', [
    { name: 'user_token', value: owner.user_token },
    { name: 'page_id', value: String(page.page_id) },
    { name: 'file', filename: 'notes.txt', content: Buffer.from('notes') },
  ]);
  const fileSign = signOf(upload.body.url);
  const file = await UploadFile.findOne({ sign: fileSign }).lean();
  values = {
    item_id,
    copy_item_id: item_id,
    to_item_id: item_id,
    page_id: page.page_id,
    cat_id: catId,
    parent_cat_id: 0,
    new_p_cat_id: 0,
    page_history_id: history!.page_history_id,
    item_member_id: itemMemberId,
    team_id: teamId,
    id: teamItemMember?.id ?? teamItemId,
    file_id: file!.file_id,
    file_ids: String(file!.file_id),
    uid: member.uid,
    from_uid: owner.uid,
    username: member.username,
    member_username: teammate.username,
    item_name: 'Front end',
    group_name: 'Group',
    team_name: 'Team',
    page_title: 'Intro',
    page_content: 'Hello from the front end',
    content: 'A comment',
    cat_name: 'Guide',
    keyword: 'Intro',
    password: 'wrong-password',
    new_password: 'n3w-Passw0rd',
    confirm_password: 'n3w-Passw0rd',
    project_name: 'Front end',
    page: 1,
    count: 10,
    page_size: 10,
    member_group_id: 1,
    team_member_group_id: 1,
    feedback_type: 1,
    client_id: 'front-end-client',
    guest_token: 'guest-token-123',
    is_urlencode: 0,
    isCreateSiglePage: 'true',
    expire_days: 0,
    lock_to: 0,
    redirect_login: 'false',
    confirm: 1,
    name: 'Owner',
    template_title: 'T',
    template_content: 'body',
    template_id: 1,
    message_content_id: 1,
    session_id: 1,
    msg_id: 1,
    feedback: 1,
    message: 'hi',
    event_type: 'task_created',
    sql: 'CREATE TABLE t (id int)',
    push_url: 'https://example.com/hook',
    path: '/mock',
    template: '{}',
    data: '{}',
    groups: '[]',
    cats: '[]',
    export_format: 'markdown',
    captcha: '0000',
    // Captcha ids are random: a real one, as the front end gets from common/createCaptcha.
    captcha_id: await createCaptcha({ ip: '127.0.0.1' }),
    token: 'nope',
    unique_key: 'nope',
    uids: String(member.uid),
  };
});
afterAll(async () => {
  await server.stop();
});

/** Writes that would spoil later calls run last, and logout very last. */
function order(entries: Entry[]): Entry[] {
  const rank = (e: Entry) =>
    e.call === 'user/logout'
      ? 2
      : /delete|attorn|archive|exit|reset|ban|recover|batch/i.test(e.call)
        ? 1
        : 0;
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

async function drive(entry: Entry): Promise<{ status: number; code: number | null }> {
  const params: Record<string, string> = { user_token: owner.user_token };
  for (const name of entry.params)
    if (name in values) params[name] = String(values[name]);
    else if (name !== 'file' && name !== 'editormd-image-file') params[name] = '';
  if (entry.params.includes('file') || entry.params.includes('editormd-image-file')) {
    const answer = await postMultipart(server.url, entry.call, [
      ...Object.entries(params).map(([name, value]) => ({ name, value })),
      {
        name: entry.params.includes('file') ? 'file' : 'editormd-image-file',
        filename: 'a.txt',
        content: Buffer.from('x'),
      },
    ]);
    return { status: answer.status, code: Number(answer.body.error_code ?? 0) };
  }
  const response = await fetch(`${server.url}/api/${entry.call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
    redirect: 'manual',
  });
  const text = await response.text();
  let code: number | null;
  try {
    const body = JSON.parse(text) as { error_code?: number };
    code = typeof body.error_code === 'number' ? body.error_code : null;
  } catch {
    code = null; // an image, a download or a redirect
  }
  return { status: response.status, code };
}

describe("ShowDoc's front-end calls", () => {
  test('the fixture lists the calls with their parameters', () => {
    expect(fixture.calls.length).toBeGreaterThan(150);
    for (const entry of fixture.calls) expect(entry.call).toMatch(/^[A-Za-z_]+\/[A-Za-z_0-9]+$/);
    const names = new Set(fixture.calls.map((e) => e.call));
    // The back office, the offline HTML export and the AI writer are among them.
    for (const call of [
      'adminUser/getList',
      'adminSetting/saveConfig',
      'exportHtml/export',
      'ai/create',
    ])
      expect(names).toContain(call);
  });

  test('every call reaches an action: none answers 10404', async () => {
    const missing: string[] = [];
    for (const entry of order(fixture.calls)) {
      const { status, code } = await drive(entry);
      if (status === 404 || code === 10404) missing.push(`${entry.call} → ${status}/${code}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('left-out features answer as ShowDoc with them switched off', () => {
  let token: string;
  const call = (route: string, params: Record<string, string | number> = {}) =>
    server.api.call(route, { user_token: token, ...params }).then((a) => a.body);

  beforeAll(async () => {
    token = (await makeUser()).user_token;
  });

  test('agent/config without an AI service: enabled false; sessions empty; asking says it is off', async () => {
    const { item_id } = await makeItem(await makeUser());
    expect(await call('agent/config', {})).toEqual({
      error_code: 0,
      data: {
        enabled: false,
        welcome_message: '',
        can_edit: false,
        item_type: 'regular',
        is_guest: false,
        guest_enabled: false,
        dialog_collapsed: 1,
      },
    });
    const anonymous = await server.api.call('agent/config', { item_id, guest_token: 'g-12345678' });
    expect(anonymous.body.data).toMatchObject({
      enabled: false,
      is_guest: true,
      item_type: 'regular',
    });
    expect((await server.api.call('agent/config')).body.error_code).toBe(10102);
    expect(await call('agent/sessionList')).toEqual({ error_code: 0, data: { sessions: [] } });
    for (const action of ['sessionNew', 'sessionLoad', 'agent'])
      expect((await call(`agent/${action}`, { message: 'hi', session_id: 1 })).error_code).toBe(
        10101,
      );
  });

  test('item AI settings read as off until set; ai_token lists none; kanban and the public square are off', async () => {
    const user = await makeUser();
    const { item_id } = await makeItem(user);
    token = user.user_token;
    expect((await call('item/getAiConfig', { item_id })).data).toEqual({
      enabled: 0,
      dialog_collapsed: 1,
      guest_enabled: 0,
      welcome_message: '',
      system_prompt: '',
    });
    expect(await call('item/setAiConfig', { item_id })).toMatchObject({ error_code: 10101 });
    expect(await call('ai_token/list')).toEqual({ error_code: 0, data: { tokens: [], total: 0 } });
    expect((await call('ai_token/detail', { id: 3 })).error_code).toBe(10101);
    expect((await call('kanban/getActivity', { item_id })).error_code).toBe(10303);
    expect((await call('kanban/logEvent', { item_id, event_type: 'nope' })).error_code).toBe(10101);
    expect(await call('publicSquare/checkEnabled')).toEqual({ error_code: 0, data: { enable: 0 } });
    expect((await call('publicSquare/getPublicItems')).error_code).toBe(10501);
    expect(await call('update/checkDb')).toEqual({ error_code: 0, data: [] });
    const cron = await server.api.call('ScriptCron/run');
    expect({ status: cron.status, body: cron.body }).toEqual({
      status: 403,
      body: { error_code: 10403, error_message: 'Forbidden' },
    });
  });

  test('back-office calls Quire leaves out refuse admins with 10101 and others with 10103; recoverItem restores', async () => {
    // The owner logged out at the end of the drive above: a fresh admin.
    const boss = await makeUser({ admin: true });
    const admin = server.api.withToken(boss.user_token);
    const plain = server.api.withToken((await makeUser()).user_token);
    for (const route of [
      'adminItem/addKeyword',
      'adminItem/ban',
      'adminItem/white',
      'adminItem/recommendItem',
      'adminItem/deleteRecommend',
      'adminItem/getVisitList',
      'adminUser/ban',
      'adminUser/loginLog',
      'adminSetting/loadOauth',
      'adminSetting/saveOauth',
    ]) {
      expect((await admin.call(route, { item_id: 1, uid: 1 })).body).toEqual({
        error_code: 10101,
        error_message: 'This back-office action is not available in this edition',
      });
      expect((await plain.call(route, { item_id: 1, uid: 1 })).body.error_code).toBe(10103);
    }
    for (const route of ['adminUpdate/download', 'adminUpdate/updateFiles'])
      expect((await admin.call(route)).body.error_message).toMatch(/does not update itself/);
    expect((await admin.call('adminSetting/testAiService')).body).toEqual({
      error_code: 10101,
      error_message: 'The AI service address and key are required',
    });

    const { item_id } = await makeItem(boss, { item_name: 'Comes back' });
    expect((await admin.call('adminItem/recoverItem', { item_id })).body.error_code).toBe(10101);
    expect((await admin.call('adminItem/deleteItem', { item_id })).body.error_code).toBe(0);
    expect((await plain.call('adminItem/recoverItem', { item_id })).body.error_code).toBe(10103);
    expect((await admin.call('adminItem/recoverItem', { item_id })).body).toEqual({
      error_code: 0,
      data: [],
    });
    expect((await admin.call('item/info', { item_id })).body).toMatchObject({
      error_code: 0,
      data: { item_name: 'Comes back' },
    });
  });
});
