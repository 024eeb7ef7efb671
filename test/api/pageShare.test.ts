/**
 * Single-page share links (page/createSinglePage, page/infoByKey) and article-ID lookups
 * (page/getPageID) over real HTTP: who may switch a link, the key format, on/off, expiry, and
 * what the public key shows.
 */
import { describe, expect, test } from '@jest/globals';
import { unescapeFromClient } from '../../models/pages/pageContent';
import { Item } from '../../models/items/schemas/item';
import { Page } from '../../models/pages/schemas/page';
import { SinglePage } from '../../models/pages/schemas/singlePage';
import { pageByShareKey } from '../../models/pages/shareLinks';
import { nowSeconds } from '../../models/platform/time';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite({ item: { password: 'item-pw' } });

const { as } = suite;

describe('page/createSinglePage', () => {
  test('anonymous callers, readers and strangers get 10101; bad ids and expiry too; no link is written', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const on = { page_id: page.page_id, isCreateSiglePage: 'true' };
    for (const client of [suite.server.api, as(suite.reader), as(suite.stranger)])
      expect((await client.fail('page/createSinglePage', on)).error_code).toBe(10101);
    for (const params of [
      { ...on, page_id: 0 },
      { ...on, page_id: 999_999_999 },
      { ...on, expire_days: -1 },
      { ...on, expire_days: 100_000 },
    ])
      expect((await as(suite.owner).fail('page/createSinglePage', params)).error_code).toBe(10101);
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('on: a 32-hex key that infoByKey serves to anyone; off: [] and the key stops working', async () => {
    const page = await makePage(suite.editor, suite.itemId, {
      title: 'Shared',
      content: 'Hello <world> & "all"',
    });
    const link = await as(suite.editor).ok<{
      unique_key: string;
      page_id: number;
      expire_time: number;
    }>('page/createSinglePage', {
      page_id: page.page_id,
      isCreateSiglePage: 'true',
    });
    expect(link).toEqual({
      unique_key: expect.stringMatching(/^[0-9a-f]{32}$/),
      page_id: page.page_id,
      expire_time: 0,
    });
    expect(await as(suite.owner).ok('page/info', { page_id: page.page_id })).toMatchObject({
      unique_key: link.unique_key,
    });

    // No login and no item password: the key is the permission.
    const shown = await suite.server.api.ok<Record<string, unknown>>('page/infoByKey', {
      unique_key: link.unique_key,
    });
    expect(shown).toMatchObject({
      page_id: String(page.page_id),
      page_title: 'Shared',
      author_username: suite.editor.username,
      attachment_count: 0,
      expire_time: 0,
    });
    expect(shown).not.toHaveProperty('item_id');
    expect(shown).not.toHaveProperty('cat_id');
    expect(shown.addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(unescapeFromClient(String(shown.page_content))).toBe('Hello <world> & "all"');

    expect(
      await as(suite.editor).ok('page/createSinglePage', {
        page_id: page.page_id,
        isCreateSiglePage: 'false',
      }),
    ).toEqual([]);
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(
      (await suite.server.api.fail('page/infoByKey', { unique_key: link.unique_key })).error_code,
    ).toBe(10101);
    expect(await as(suite.owner).ok('page/info', { page_id: page.page_id })).toMatchObject({
      unique_key: '',
    });
  });

  test('switching on again issues a new key and retires the old one; only the string "true" switches on', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const first = await as(suite.owner).ok<{ unique_key: string }>('page/createSinglePage', {
      page_id: page.page_id,
      isCreateSiglePage: 'true',
    });
    const second = await as(suite.owner).ok<{ unique_key: string }>('page/createSinglePage', {
      page_id: page.page_id,
      isCreateSiglePage: 'true',
    });
    expect(second.unique_key).not.toBe(first.unique_key);
    expect(
      (await suite.server.api.fail('page/infoByKey', { unique_key: first.unique_key })).error_code,
    ).toBe(10101);
    await expect(
      suite.server.api.ok('page/infoByKey', { unique_key: second.unique_key }),
    ).resolves.toBeDefined();
    expect(
      await as(suite.owner).ok('page/createSinglePage', {
        page_id: page.page_id,
        isCreateSiglePage: '1',
      }),
    ).toEqual([]);
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('expire_days sets expire_time; an expired key is refused and removed', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const before = nowSeconds();
    const link = await as(suite.owner).ok<{ unique_key: string; expire_time: number }>(
      'page/createSinglePage',
      {
        page_id: page.page_id,
        isCreateSiglePage: 'true',
        expire_days: 2,
      },
    );
    expect(link.expire_time).toBeGreaterThanOrEqual(before + 2 * 86_400);
    expect(link.expire_time).toBeLessThanOrEqual(nowSeconds() + 2 * 86_400);
    await expect(pageByShareKey(link.unique_key, link.expire_time - 1)).resolves.toMatchObject({
      expireTime: link.expire_time,
    });
    await expect(pageByShareKey(link.unique_key, link.expire_time)).rejects.toMatchObject({
      code: 10101,
    });
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
  });
});

describe('page/infoByKey', () => {
  test('empty, malformed, unknown keys and keys of deleted pages, drafts or deleted items answer 10101', async () => {
    expect((await suite.server.api.fail('page/infoByKey', {})).error_code).toBe(10101);
    expect(
      (await suite.server.api.fail('page/infoByKey', { unique_key: 'not-a-key' })).error_code,
    ).toBe(10101);
    expect(
      (await suite.server.api.fail('page/infoByKey', { unique_key: 'f'.repeat(32) })).error_code,
    ).toBe(10101);
    const operator = await suite.server.api.call(
      'page/infoByKey',
      { unique_key: { $ne: '' } },
      { json: true },
    );
    expect(operator.body.error_code).toBe(10101);

    const own = await makeItem(suite.owner);
    const deleted = await makePage(suite.owner, own.item_id);
    const draft = await makePage(suite.owner, own.item_id);
    const inDeletedItem = await makePage(suite.owner, own.item_id);
    const keys: string[] = [];
    for (const page of [deleted, draft, inDeletedItem])
      keys.push(
        (
          await as(suite.owner).ok<{ unique_key: string }>('page/createSinglePage', {
            page_id: page.page_id,
            isCreateSiglePage: 'true',
          })
        ).unique_key,
      );
    await Page.updateOne({ page_id: deleted.page_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    await Page.updateOne({ page_id: draft.page_id }, { $set: { is_draft: 1 } });
    forgetCachedReads();
    for (const key of keys.slice(0, 2))
      expect((await suite.server.api.fail('page/infoByKey', { unique_key: key })).error_code).toBe(
        10101,
      );
    await expect(
      suite.server.api.ok('page/infoByKey', { unique_key: keys[2] }),
    ).resolves.toBeDefined();
    await Item.updateOne({ item_id: own.item_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    expect(
      (await suite.server.api.fail('page/infoByKey', { unique_key: keys[2] })).error_code,
    ).toBe(10101);
  });
});

describe('page/getPageID', () => {
  test('page id → article ID and (item, article ID) → page id, with visit access', async () => {
    const page = await makePage(suite.owner, suite.itemId, { customId: 'install-guide' });
    expect(await as(suite.reader).ok('page/getPageID', { page_id: page.page_id })).toEqual({
      page_id: String(page.page_id),
      page_custom_id: 'install-guide',
    });
    expect(
      await as(suite.reader).ok('page/getPageID', {
        item_id: suite.itemId,
        page_custom_id: 'install-guide',
      }),
    ).toEqual({
      page_id: String(page.page_id),
      page_custom_id: 'install-guide',
    });
    await expect(
      suite.server.api.ok('page/getPageID', {
        item_id: suite.itemId,
        page_custom_id: 'install-guide',
        _item_pwd: 'item-pw',
      }),
    ).resolves.toMatchObject({
      page_id: String(page.page_id),
    });
  });

  test('a page without an article ID answers its numeric id, and that id resolves back', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(await as(suite.reader).ok('page/getPageID', { page_id: page.page_id })).toEqual({
      page_id: String(page.page_id),
      page_custom_id: String(page.page_id),
    });
    expect(
      await as(suite.reader).ok('page/getPageID', {
        item_id: suite.itemId,
        page_custom_id: String(page.page_id),
      }),
    ).toMatchObject({ page_id: String(page.page_id) });
  });

  test("unknown ids, other items' pages, missing parameters and no visit access answer 10101", async () => {
    const page = await makePage(suite.owner, suite.itemId, { customId: 'secret-doc' });
    const other = await makeItem(suite.owner);
    expect((await as(suite.owner).fail('page/getPageID', {})).error_code).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('page/getPageID', {
          item_id: suite.itemId,
          page_custom_id: 'nope',
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('page/getPageID', {
          item_id: other.item_id,
          page_custom_id: 'secret-doc',
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('page/getPageID', {
          item_id: other.item_id,
          page_custom_id: String(page.page_id),
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.stranger).fail('page/getPageID', {
          item_id: suite.itemId,
          page_custom_id: 'secret-doc',
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (await suite.server.api.fail('page/getPageID', { page_id: page.page_id })).error_code,
    ).toBe(10101);
  });
});
