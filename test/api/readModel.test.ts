/**
 * Read-your-writes in one process: every check first reads (so the read model holds the entry),
 * then writes through the API, then reads again at once and must see the write — page text, a
 * display name, a share link, and each revocation (member removed, logout,
 * password changed, item archived, item deleted). The two-process version is
 * test/realtime/readModel-redis.test.ts.
 */
import { describe, expect, test } from '@jest/globals';
import { issueToken } from '../../models/accounts/users';
import { Item } from '../../models/items/schemas';
import { Page } from '../../models/pages/schemas';
import { forgetCachedReads } from '../../models/platform';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';

const suite = apiSuite();
const { as } = suite;

async function itemWithPage() {
  const { item_id: itemId } = await makeItem(suite.owner, { password: 'visit-secret' });
  const page = await makePage(suite.owner, itemId, { title: 'Cached', content: 'first text' });
  return { itemId, pageId: page.page_id };
}

/** A save of the test page through the API (its answer comes after the save's events). */
const saveText = (itemId: number, pageId: number, content: string) =>
  as(suite.owner).ok('page/save', {
    page_id: pageId,
    item_id: itemId,
    page_title: 'Cached',
    page_content: content,
  });

type PageInfo = { page_content: string; unique_key: string; attachment_count: number };

describe('a write is seen by the next read', () => {
  test('page text', async () => {
    const { itemId, pageId } = await itemWithPage();
    expect(
      (await as(suite.owner).ok<PageInfo>('page/info', { page_id: pageId })).page_content,
    ).toBe('first text');
    await saveText(itemId, pageId, 'second text');
    expect(
      (await as(suite.owner).ok<PageInfo>('page/info', { page_id: pageId })).page_content,
    ).toBe('second text');
  });

  test('a saved page is kept as saved: the next read needs no query, and equals a fresh load', async () => {
    const { itemId, pageId } = await itemWithPage();
    await saveText(itemId, pageId, 'saved text');
    // A row changed behind the models' back right after the save is not seen: the save's own
    // result was kept (a read that had to load would answer the changed row).
    await Page.updateOne({ page_id: pageId }, { $set: { page_content: 'behind the back' } });
    const served = await as(suite.owner).ok<PageInfo>('page/info', { page_id: pageId });
    expect(served.page_content).toBe('saved text');
    forgetCachedReads();
    await Page.updateOne({ page_id: pageId }, { $set: { page_content: 'saved text' } });
    expect(await as(suite.owner).ok<PageInfo>('page/info', { page_id: pageId })).toEqual(served);
  });

  test("a save moves the kept item's last_update_time forward without reloading the item", async () => {
    const { itemId, pageId } = await itemWithPage();
    type Detail = { item_name: string; last_update_time: string };
    const detail = () => as(suite.owner).ok<Detail>('item/detail', { item_id: itemId });
    const before = await detail(); // the item is kept from here
    await saveText(itemId, pageId, 'touching the item');
    // Renamed behind the models' back: only a reload would show it.
    await Item.updateOne({ item_id: itemId }, { $set: { item_name: 'renamed behind the back' } });
    const after = await detail();
    expect(after.item_name).toBe(before.item_name);
    const stored = (await Item.findOne({ item_id: itemId }).lean())!.last_update_time;
    expect(Number(after.last_update_time)).toBe(stored);
    expect(stored).toBeGreaterThanOrEqual(Number(before.last_update_time));
  });

  test('a display name', async () => {
    const user = await makeUser();
    await as(user).ok('user/info');
    await as(user).ok('user/updateInfo', { name: 'New Name' });
    expect((await as(user).ok<{ name: string }>('user/info')).name).toBe('New Name');
  });

  test('a share link switched on and off', async () => {
    const { pageId } = await itemWithPage();
    const read = async () =>
      (await as(suite.owner).ok<PageInfo>('page/info', { page_id: pageId })).unique_key;
    expect(await read()).toBe('');
    const link = await as(suite.owner).ok<{ unique_key: string }>('page/createSinglePage', {
      page_id: pageId,
      isCreateSiglePage: 'true',
    });
    expect(await read()).toBe(link.unique_key);
    await as(suite.owner).ok('page/createSinglePage', {
      page_id: pageId,
      isCreateSiglePage: 'false',
    });
    expect(await read()).toBe('');
  });
});

describe('revocations take effect on the next request', () => {
  test('a removed member', async () => {
    const { itemId, pageId } = await itemWithPage();
    const member = await makeUser();
    const rowId = await addMember(itemId, member, 1);
    await as(member).ok('page/info', { page_id: pageId });
    await as(member).ok('item/info', { item_id: itemId });
    await as(suite.owner).ok('member/delete', { item_id: itemId, item_member_id: rowId });
    expect((await as(member).fail('page/info', { page_id: pageId })).error_code).toBe(10303);
    expect((await as(member).fail('item/info', { item_id: itemId })).error_code).toBe(10303);
  });

  test('a logged-out token', async () => {
    const user = await makeUser();
    await as(user).ok('user/info');
    await as(user).ok('user/logout');
    expect((await as(user).fail('user/info')).error_code).toBe(10102);
  });

  test('every token after a password change', async () => {
    const user = await makeUser();
    const { token } = await issueToken(user.uid);
    const other = suite.server.api.withToken(token);
    await other.ok('user/info');
    await as(user).ok('user/resetPassword', {
      password: user.password,
      new_password: 'a-new-password-1',
    });
    expect((await other.fail('user/info')).error_code).toBe(10102);
    expect((await as(user).fail('user/info')).error_code).toBe(10102);
  });

  test('an archived item refuses writes', async () => {
    const { itemId, pageId } = await itemWithPage();
    const editor = await makeUser();
    await addMember(itemId, editor, 1);
    const save = { page_id: pageId, item_id: itemId, page_title: 'Cached', page_content: 'x' };
    await as(editor).ok('page/save', save);
    await as(suite.owner).ok('item/archive', { item_id: itemId, password: suite.owner.password });
    expect((await as(editor).fail('page/save', save)).error_code).toBe(10101);
  });

  test('a deleted item is gone', async () => {
    const { itemId, pageId } = await itemWithPage();
    await as(suite.owner).ok('page/info', { page_id: pageId });
    await as(suite.owner).ok('item/info', { item_id: itemId });
    await as(suite.owner).ok('item/delete', { item_id: itemId, password: suite.owner.password });
    expect((await as(suite.owner).fail('page/info', { page_id: pageId })).error_code).toBe(10101);
    expect((await as(suite.owner).fail('item/info', { item_id: itemId })).error_code).toBe(10101);
  });
});
