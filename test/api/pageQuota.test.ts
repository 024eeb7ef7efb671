/**
 * The per-item page quota (spec 001 §3 lock `exceed`, §8 "page quota exceeded on a new page"):
 * the back office's `page_quota` setting (off by default), `page/isLock` reporting `exceed` — also
 * for page 0, the question the editor asks before a new page — and `page/save` refusing a new
 * page in a full item while edits of existing pages go on.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { Page } from '../../models/pages/schemas/page';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';

const suite = apiSuite({ item: {}, users: { stranger: { admin: true } } });
const { as } = suite;
/** The site admin (the suite's `stranger`, who belongs to no item). */
const admin = () => as(suite.stranger);

const setQuota = (value: number | string) =>
  admin().ok('adminSetting/saveConfig', { page_quota: value });

afterEach(async () => {
  await setQuota(0);
});

describe('the page_quota setting', () => {
  test('is off (0) by default, saved by an admin, read back by loadConfig', async () => {
    const before = await admin().ok<{ page_quota: number }>('adminSetting/loadConfig');
    expect(before.page_quota).toBe(0);
    await setQuota('3');
    const after = await admin().ok<{ page_quota: number }>('adminSetting/loadConfig');
    expect(after.page_quota).toBe(3);
  });

  test('bad values are refused (10101) and change nothing; non-admins cannot set it', async () => {
    await setQuota(5);
    for (const bad of ['-1', 'many', '2.5', '1000001']) {
      const answer = await admin().fail('adminSetting/saveConfig', { page_quota: bad });
      expect(answer.error_code).toBe(10101);
      expect(answer.error_message).toMatch(/page_quota/);
    }
    expect(
      (await as(suite.owner).fail('adminSetting/saveConfig', { page_quota: 1 })).error_code,
    ).not.toBe(0);
    const config = await admin().ok<{ page_quota: number }>('adminSetting/loadConfig');
    expect(config.page_quota).toBe(5);
  });
});

describe('page/isLock exceed', () => {
  test('0 while no quota is set, for a new page (0 + item_id) and an existing one', async () => {
    const { item_id } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, item_id);
    await makePage(suite.owner, item_id);
    const fresh = await as(suite.owner).ok('page/isLock', { page_id: 0, item_id });
    expect(fresh).toEqual({ lock: 0, exceed: 0, lock_uid: '', lock_username: '', is_cur_user: 0 });
    const existing = await as(suite.owner).ok<{ exceed: number }>('page/isLock', {
      page_id: page.page_id,
      item_id,
    });
    expect(existing.exceed).toBe(0);
  });

  test('1 once the item holds as many pages as the quota; deleted pages do not count', async () => {
    const { item_id } = await makeItem(suite.owner);
    const first = await makePage(suite.owner, item_id);
    const second = await makePage(suite.owner, item_id);
    await setQuota(2);
    const ask = async (pageId: number) =>
      (await as(suite.owner).ok<{ exceed: number }>('page/isLock', { page_id: pageId, item_id }))
        .exceed;
    expect(await ask(0)).toBe(1);
    expect(await ask(first.page_id)).toBe(1);
    await as(suite.owner).ok('page/delete', { page_id: second.page_id, item_id });
    expect(await ask(0)).toBe(0);
  });

  test('page 0 needs item_id and edit access to it (read-only members and strangers: 10101)', async () => {
    expect((await as(suite.owner).fail('page/isLock', { page_id: 0 })).error_code).toBe(10101);
    const outsider = await makeUser();
    for (const user of [suite.reader, outsider])
      expect(
        (await as(user).fail('page/isLock', { page_id: 0, item_id: suite.itemId })).error_code,
      ).toBe(10101);
    expect(
      (
        await as(suite.editor).ok<{ exceed: number }>('page/isLock', {
          page_id: 0,
          item_id: suite.itemId,
        })
      ).exceed,
    ).toBe(0);
  });
});

describe('page/save under a quota', () => {
  test('a new page in a full item is refused and not stored; existing pages still save', async () => {
    const { item_id } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, item_id, { title: 'Only page' });
    await setQuota(1);
    const refused = await as(suite.owner).fail('page/save', {
      item_id,
      page_id: 0,
      page_title: 'One too many',
      page_content: 'text',
    });
    expect(refused).toMatchObject({
      error_code: 10101,
      error_message: 'The page count of this project has reached the limit',
    });
    expect(await Page.countDocuments({ item_id, is_del: 0 })).toBe(1);

    await as(suite.owner).ok('page/save', {
      item_id,
      page_id: page.page_id,
      page_title: 'Only page, edited',
      page_content: 'new text',
    });
    const stored = await Page.findOne({ page_id: page.page_id }).lean();
    expect(stored?.page_title).toBe('Only page, edited');

    await setQuota(2);
    await as(suite.owner).ok('page/save', {
      item_id,
      page_id: 0,
      page_title: 'Second page',
      page_content: 'text',
    });
    expect(await Page.countDocuments({ item_id, is_del: 0 })).toBe(2);
  });
});
