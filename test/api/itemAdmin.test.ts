/**
 * The administrative item actions over real HTTP: open-API keys, archive, transfer, delete and
 * the change log — permissions, re-authentication with the caller's own password, and what the
 * database holds afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { LOG_TRIM_EVERY, logChange, MAX_ROWS } from '../../models/items/changeLog';
import { nextId, raiseCounter } from '../../models/platform/counters';
import { itemIdForApiKey } from '../../models/items/itemKeys';
import { Item } from '../../models/items/schemas/item';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { ItemToken } from '../../models/items/schemas/itemToken';
import { User } from '../../models/accounts/schemas/user';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { addMember, makeItem } from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let owner: TestUser;
let admin: TestUser;
let editor: TestUser;
let stranger: TestUser;
let siteAdmin: TestUser;
const as = (user: TestUser) => server.api.withToken(user.user_token);
const item = (item_id: number) => Item.findOne({ item_id }).lean();

/** An item of `owner` with an item admin and an editor. */
async function team(): Promise<number> {
  const { item_id } = await makeItem(owner);
  await addMember(item_id, admin, 2);
  await addMember(item_id, editor, 1);
  return item_id;
}

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  owner = await makeUser();
  admin = await makeUser();
  editor = await makeUser();
  stranger = await makeUser();
  siteAdmin = await makeUser({ admin: true });
});
afterAll(async () => {
  await server.stop();
});

describe('item/getKey and item/resetKey', () => {
  test('anonymous → 10102; editors and strangers → 10303; no key row is made', async () => {
    const itemId = await team();
    expect((await server.api.fail('item/getKey', { item_id: itemId })).error_code).toBe(10102);
    for (const user of [editor, stranger]) {
      expect((await as(user).fail('item/getKey', { item_id: itemId })).error_code).toBe(10303);
      expect((await as(user).fail('item/resetKey', { item_id: itemId })).error_code).toBe(10303);
    }
    expect((await as(owner).fail('item/getKey', { item_id: 0 })).error_code).toBe(10101);
    expect(await ItemToken.countDocuments({ item_id: itemId })).toBe(0);
  });

  test('a manager gets one stable key pair; reset replaces only the token; the open API resolves the pair', async () => {
    const itemId = await team();
    const first = await as(admin).ok<Record<string, string>>('item/getKey', { item_id: itemId });
    expect(first).toMatchObject({
      item_id: String(itemId),
      api_key: expect.stringMatching(/^[0-9a-f]{32}\d+$/),
      api_token: expect.stringMatching(/^[0-9a-f]{32}\d+$/),
    });
    expect(await as(owner).ok('item/getKey', { item_id: itemId })).toEqual(first);
    const reset = await as(owner).ok<Record<string, string>>('item/resetKey', { item_id: itemId });
    expect(reset.api_key).toBe(first.api_key);
    expect(reset.api_token).not.toBe(first.api_token);
    expect(await itemIdForApiKey(reset.api_key, reset.api_token)).toBe(itemId);
    expect(await itemIdForApiKey(first.api_key, first.api_token)).toBeNull();
  });

  test('on an archived item the existing pair can be read but not reset, and no new pair is made', async () => {
    const withKey = await team();
    const key = await as(owner).ok<Record<string, string>>('item/getKey', { item_id: withKey });
    const withoutKey = await team();
    await Item.updateMany(
      { item_id: { $in: [withKey, withoutKey] } },
      { $set: { is_archived: 1 } },
    );
    forgetCachedReads();
    expect(await as(owner).ok('item/getKey', { item_id: withKey })).toEqual(key);
    expect(await as(owner).fail('item/resetKey', { item_id: withKey })).toMatchObject({
      error_code: 10303,
      error_message: expect.stringMatching(/archived/),
    });
    expect((await ItemToken.findOne({ item_id: withKey }).lean())!.api_token).toBe(key.api_token);
    expect((await as(owner).fail('item/getKey', { item_id: withoutKey })).error_code).toBe(10303);
    expect(await ItemToken.countDocuments({ item_id: withoutKey })).toBe(0);
  });
});

describe('item/archive', () => {
  test('editors → 10303; a wrong or missing password → 10208/10101; nothing is archived', async () => {
    const itemId = await team();
    expect(
      (await server.api.fail('item/archive', { item_id: itemId, password: owner.password }))
        .error_code,
    ).toBe(10102);
    expect(
      (await as(editor).fail('item/archive', { item_id: itemId, password: editor.password }))
        .error_code,
    ).toBe(10303);
    expect(
      (await as(owner).fail('item/archive', { item_id: itemId, password: 'wrong' })).error_code,
    ).toBe(10208);
    expect((await as(owner).fail('item/archive', { item_id: itemId })).error_code).toBe(10101);
    expect(
      (await as(owner).fail('item/archive', { item_id: itemId, password: { $ne: '' } })).error_code,
    ).toBe(10101);
    expect((await item(itemId))!.is_archived).toBe(0);
  });

  test('an item admin archives with their own password; afterwards every write is refused but reads work', async () => {
    const itemId = await team();
    expect(
      await as(admin).ok('item/archive', { item_id: itemId, password: admin.password }),
    ).toEqual({ success: true });
    expect((await item(itemId))!.is_archived).toBe(1);
    const writes: [string, Record<string, unknown>][] = [
      ['item/update', { item_id: itemId, item_name: 'Changed' }],
      ['item/resetKey', { item_id: itemId }],
      ['item/attorn', { item_id: itemId, username: stranger.username, password: owner.password }],
      ['item/archive', { item_id: itemId, password: owner.password }],
      ['member/save', { item_id: itemId, username: stranger.username, member_group_id: 1 }],
    ];
    for (const [route, params] of writes) {
      const answer = await as(owner).fail(route, params as never);
      expect([route, answer.error_code, answer.error_message]).toEqual([
        route,
        10303,
        'This item is archived and read-only',
      ]);
    }
    const after = await item(itemId);
    expect(after).toMatchObject({
      item_name: expect.not.stringMatching('Changed'),
      uid: owner.uid,
    });
    expect(await ItemMember.exists({ item_id: itemId, uid: stranger.uid })).toBeNull();
    const info = await as(editor).ok<Record<string, unknown>>('item/info', { item_id: itemId });
    expect(info).toMatchObject({ is_archived: '1', item_edit: false, item_manage: false });
    expect(await as(owner).ok<unknown[]>('member/getList', { item_id: itemId })).toHaveLength(2);
  });
});

describe('item/attorn', () => {
  test('only the owner or a site admin may transfer: item admins and editors get 10303, nothing moves', async () => {
    const itemId = await team();
    expect(
      (
        await as(admin).fail('item/attorn', {
          item_id: itemId,
          username: stranger.username,
          password: admin.password,
        })
      ).error_code,
    ).toBe(10303);
    expect(
      (
        await as(editor).fail('item/attorn', {
          item_id: itemId,
          username: stranger.username,
          password: editor.password,
        })
      ).error_code,
    ).toBe(10303);
    expect((await item(itemId))!.uid).toBe(owner.uid);
  });

  test('wrong password → 10208, unknown user → 10209, empty user → 10209; nothing moves', async () => {
    const itemId = await team();
    expect(
      (
        await as(owner).fail('item/attorn', {
          item_id: itemId,
          username: stranger.username,
          password: 'nope',
        })
      ).error_code,
    ).toBe(10208);
    expect(
      (
        await as(owner).fail('item/attorn', {
          item_id: itemId,
          username: 'no_such_user_x',
          password: owner.password,
        })
      ).error_code,
    ).toBe(10209);
    expect(
      (
        await as(owner).fail('item/attorn', {
          item_id: itemId,
          username: '',
          password: owner.password,
        })
      ).error_code,
    ).toBe(10209);
    expect((await item(itemId))!.uid).toBe(owner.uid);
  });

  test('the owner hands the item over (by username or e-mail); the row comes back without the password', async () => {
    const { item_id: itemId } = await makeItem(owner, { password: 'keep-secret' });
    const data = await as(owner).ok<Record<string, string>>('item/attorn', {
      item_id: itemId,
      username: stranger.username,
      password: owner.password,
    });
    expect(data).toMatchObject({
      item_id: String(itemId),
      uid: String(stranger.uid),
      username: stranger.username,
      password: '',
    });
    expect((await item(itemId))!.uid).toBe(stranger.uid);
    expect((await as(owner).fail('item/detail', { item_id: itemId })).error_code).toBe(10303);
    await User.updateOne({ uid: owner.uid }, { $set: { email: 'owner-mail@example.com' } });
    forgetCachedReads();
    await as(stranger).ok('item/attorn', {
      item_id: itemId,
      username: 'owner-mail@example.com',
      password: stranger.password,
    });
    expect((await item(itemId))!.uid).toBe(owner.uid);
  });

  test('a site admin transfers with their own password', async () => {
    const itemId = await team();
    await as(siteAdmin).ok('item/attorn', {
      item_id: itemId,
      username: editor.username,
      password: siteAdmin.password,
    });
    expect((await item(itemId))!.uid).toBe(editor.uid);
  });
});

describe('item/delete', () => {
  test('editors and item admins → 10303, a wrong password → 10208; the item stays', async () => {
    const itemId = await team();
    expect(
      (await server.api.fail('item/delete', { item_id: itemId, password: 'x' })).error_code,
    ).toBe(10102);
    expect(
      (await as(editor).fail('item/delete', { item_id: itemId, password: editor.password }))
        .error_code,
    ).toBe(10303);
    expect(
      (await as(admin).fail('item/delete', { item_id: itemId, password: admin.password }))
        .error_code,
    ).toBe(10303);
    expect(
      (await as(owner).fail('item/delete', { item_id: itemId, password: 'wrong' })).error_code,
    ).toBe(10208);
    expect((await as(owner).fail('item/delete', { item_id: itemId })).error_code).toBe(10101);
    expect((await item(itemId))!.is_del).toBe(0);
  });

  test('the owner moves the item to the recycle bin: is_del and del_time set, gone from lists and info', async () => {
    const itemId = await team();
    const before = Math.floor(Date.now() / 1000);
    expect(
      await as(owner).ok('item/delete', { item_id: itemId, password: owner.password }),
    ).toEqual({ success: true });
    const row = await item(itemId);
    expect(row!.is_del).toBe(1);
    expect(row!.del_time).toBeGreaterThanOrEqual(before);
    expect(
      (await as(owner).ok<{ item_id: string }[]>('item/myList')).map((i) => i.item_id),
    ).not.toContain(String(itemId));
    expect((await as(owner).fail('item/info', { item_id: itemId })).error_code).toBe(10101);
    expect(
      (await as(owner).fail('item/delete', { item_id: itemId, password: owner.password }))
        .error_code,
    ).toBe(10101);
  });

  test('archived items can still be deleted by their owner; site admins delete with their own password', async () => {
    const archived = await team();
    await Item.updateOne({ item_id: archived }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    await as(owner).ok('item/delete', { item_id: archived, password: owner.password });
    expect((await item(archived))!.is_del).toBe(1);
    const other = await team();
    await as(siteAdmin).ok('item/delete', { item_id: other, password: siteAdmin.password });
    expect((await item(other))!.is_del).toBe(1);
  });

  test('a single-sign-on owner confirms with the exact item name instead of a password', async () => {
    const sso = await makeUser();
    await User.updateOne({ uid: sso.uid }, { $set: { is_sso: 1 } });
    forgetCachedReads();
    const { item_id, item_name } = await makeItem(sso, { item_name: 'SSO Item' });
    expect(
      (await as(sso).fail('item/delete', { item_id, project_name: 'sso item' })).error_code,
    ).toBe(10208);
    expect((await item(item_id))!.is_del).toBe(0);
    await as(sso).ok('item/delete', { item_id, project_name: item_name });
    expect((await item(item_id))!.is_del).toBe(1);
  });
});

describe('item/getChangeLog', () => {
  test('readers and strangers → 10101; editors get the newest first with names and labels, paged', async () => {
    const itemId = await team();
    const reader = await makeUser();
    await addMember(itemId, reader, 0);
    expect((await server.api.fail('item/getChangeLog', { item_id: itemId })).error_code).toBe(
      10102,
    );
    expect((await as(reader).fail('item/getChangeLog', { item_id: itemId })).error_code).toBe(
      10101,
    );
    expect((await as(stranger).fail('item/getChangeLog', { item_id: itemId })).error_code).toBe(
      10101,
    );
    const data = await as(editor).ok<{ total: number; list: Record<string, unknown>[] }>(
      'item/getChangeLog',
      { item_id: itemId, page: 1, count: 2 },
    );
    // Three members were bound: admin, editor, reader.
    expect(data.total).toBe(3);
    expect(data.list).toHaveLength(2);
    expect(data.list[0]).toMatchObject({
      item_id: String(itemId),
      uid: String(owner.uid),
      op_action_type: 'binding',
      op_object_type: 'member',
      op_object_id: reader.uid,
      op_object_name: reader.username,
      oper: owner.username,
      op_action_type_desc: '绑定',
      op_object_type_desc: '成员',
      optime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const page2 = await as(editor).ok<{ list: { op_object_name: string }[] }>('item/getChangeLog', {
      item_id: itemId,
      page: 2,
      count: 2,
    });
    expect(page2.list.map((r) => r.op_object_name)).toEqual([admin.username]);
  });

  test(`readers see only the newest ${MAX_ROWS} rows, and the trims drop the older ones`, async () => {
    const { item_id } = await makeItem(owner);
    // A full log written directly (fast), then more through logChange: enough rows that at
    // least one of them trims (one id in LOG_TRIM_EVERY does).
    const firstId = (await nextId('item_change_log_id')) + 1;
    await raiseCounter('item_change_log_id', firstId + MAX_ROWS);
    await ItemChangeLog.insertMany(
      Array.from({ length: MAX_ROWS }, (_, i) => ({
        id: firstId + i,
        uid: owner.uid,
        item_id,
        op_action_type: 'update',
        op_object_type: 'page',
        op_object_id: i,
        optime: '2024-01-01 00:00:00',
      })),
    );
    const more = LOG_TRIM_EVERY + 5;
    for (let i = MAX_ROWS; i < MAX_ROWS + more; i++)
      await logChange({
        uid: owner.uid,
        itemId: item_id,
        action: 'update',
        object: 'page',
        objectId: i,
        objectName: `p${i}`,
      });
    const listed = await as(owner).ok<{ total: number; list: { op_object_id: number }[] }>(
      'item/getChangeLog',
      { item_id, page: 1, count: 100 },
    );
    expect(listed.total).toBe(MAX_ROWS);
    expect(listed.list[0].op_object_id).toBe(MAX_ROWS + more - 1);
    // The last trimming row came at least 6 rows in: the 6 oldest rows are gone for good, and
    // what is stored stays within one trim period of the bound.
    expect(await ItemChangeLog.countDocuments({ item_id, op_object_id: { $lt: 6 } })).toBe(0);
    const stored = await ItemChangeLog.countDocuments({ item_id });
    expect(stored).toBeGreaterThanOrEqual(MAX_ROWS);
    expect(stored).toBeLessThan(MAX_ROWS + LOG_TRIM_EVERY);
  });
});
