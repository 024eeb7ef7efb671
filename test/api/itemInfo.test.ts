/**
 * Opening an item over real HTTP: item/info (payload, flags, visit rules, archive, force_login),
 * the visit-password screen item/pwd (captcha, remembered password) and item/getItemId.
 */
import { describe, expect, test } from '@jest/globals';
import { createCaptcha } from '../../models/accounts/captcha';
import { nextId } from '../../models/platform/counters';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { Item } from '../../models/items/schemas/item';
import { Page } from '../../models/pages/schemas/page';
import { deleteSetting, setSetting } from '../../models/settings/settings';
import { apiSuite } from '../helpers/apiSuite';
import { makeUser } from '../helpers/users';
import { addMember, makeItem } from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite();
const { as } = suite;

/** A fresh captcha and its answer. */
async function captcha(): Promise<{ captcha_id: number; captcha: string }> {
  const captcha_id = await createCaptcha({ ip: '127.0.0.1' });
  const row = await Captcha.findOne({ captcha_id }).lean();
  return { captcha_id, captcha: row!.captcha.toLowerCase() };
}

describe('item/info', () => {
  test('a public item answers anonymous visitors with the payload, read-only flags and a shaped menu', async () => {
    const { item_id } = await makeItem(suite.owner, {
      item_name: 'Public',
      item_domain: 'publicdoc',
    });
    const data = await suite.server.api.ok<Record<string, unknown>>('item/info', {
      item_id,
      page_id: 7,
    });
    expect(data).toMatchObject({
      item_id: String(item_id),
      item_domain: 'publicdoc',
      item_name: 'Public',
      item_type: '1',
      is_archived: '0',
      default_page_id: '0',
      default_cat_id2: 0,
      default_cat_id3: 0,
      default_cat_id4: 0,
      unread_count: 0,
      is_login: false,
      item_edit: false,
      item_manage: false,
      ItemPermn: false,
      ItemCreator: false,
      current_page_id: 7,
      global_param: [],
      show_watermark: 0,
      allow_comment: '0',
      allow_feedback: '0',
      menu: { pages: [], catalogs: [] },
    });
    expect(data.ai_config).toMatchObject({ enabled: 0 });
  });

  test('the custom address works in place of the id; the flags follow the caller', async () => {
    const { item_id } = await makeItem(suite.owner, { item_domain: 'flagsdoc' });
    const editor = await makeUser();
    await addMember(item_id, editor, 1);
    expect(await as(suite.owner).ok('item/info', { item_id: 'flagsdoc' })).toMatchObject({
      item_id: String(item_id),
      is_login: true,
      item_edit: true,
      item_manage: true,
    });
    expect(await as(editor).ok('item/info', { item_domain: 'flagsdoc' })).toMatchObject({
      item_edit: true,
      item_manage: false,
    });
  });

  test('the menu lists catalogs and root pages, and a restricted member sees only their catalogs', async () => {
    const { item_id } = await makeItem(suite.owner);
    const keep = await nextId('cat_id');
    const hide = await nextId('cat_id');
    await Catalog.create([
      { cat_id: keep, cat_name: 'Keep', item_id, addtime: 1, parent_cat_id: 0, level: 2 },
      { cat_id: hide, cat_name: 'Hide', item_id, addtime: 1, parent_cat_id: 0, level: 2 },
    ]);
    forgetCachedReads();
    const pageId = await nextId('page_id');
    await Page.create({
      page_id: pageId,
      item_id,
      cat_id: keep,
      page_title: 'P',
      page_content: 'x',
      addtime: 1,
    });
    forgetCachedReads();
    const limited = await makeUser();
    await addMember(item_id, limited, 0, [keep]);
    type MenuData = {
      menu: { catalogs: { cat_name: string; pages: { page_id: string }[] }[] };
      default_cat_id3: number;
    };
    const full = await as(suite.owner).ok<MenuData>('item/info', {
      item_id,
      default_page_id: pageId,
    });
    expect(full.menu.catalogs.map((c) => c.cat_name).sort()).toEqual(['Hide', 'Keep']);
    expect(full.default_cat_id3).toBe(keep); // a top-level catalog: slot 3, as ShowDoc
    const cut = await as(limited).ok<MenuData>('item/info', { item_id });
    expect(cut.menu.catalogs.map((c) => c.cat_name)).toEqual(['Keep']);
    expect(cut.menu.catalogs[0].pages.map((p) => p.page_id)).toEqual([String(pageId)]);
  });

  test('a private item: strangers and anonymous visitors get 10303, the right _item_pwd opens it read-only', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'let-me-in' });
    expect((await suite.server.api.fail('item/info', { item_id })).error_code).toBe(10303);
    expect((await as(suite.stranger).fail('item/info', { item_id })).error_code).toBe(10303);
    expect(
      (await as(suite.stranger).fail('item/info', { item_id, _item_pwd: 'wrong' })).error_code,
    ).toBe(10303);
    expect(
      await as(suite.stranger).ok('item/info', { item_id, _item_pwd: 'let-me-in' }),
    ).toMatchObject({
      item_edit: false,
      item_manage: false,
    });
    // `_item_pwd` is read from the query or a form, never from a JSON body (as ShowDoc).
    expect(
      (
        await as(suite.stranger).fail(
          'item/info',
          { item_id, _item_pwd: 'let-me-in' },
          { json: true },
        )
      ).error_code,
    ).toBe(10303);
  });

  test('unknown, zero, deleted and malformed ids get 10101', async () => {
    const { item_id } = await makeItem(suite.owner);
    await Item.updateOne({ item_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    for (const id of [item_id, 0, 'nosuchdomain', ''])
      expect((await as(suite.owner).fail('item/info', { item_id: id })).error_code).toBe(10101);
    expect((await as(suite.owner).fail('item/info', { item_id: { $ne: 1 } })).error_code).toBe(
      10101,
    );
  });

  test('with force_login on, anonymous visitors get 10312 while logged-in users still read', async () => {
    const { item_id } = await makeItem(suite.owner);
    await setSetting('force_login', '1');
    try {
      expect((await suite.server.api.fail('item/info', { item_id })).error_code).toBe(10312);
      expect(await as(suite.stranger).ok('item/info', { item_id })).toMatchObject({
        item_id: String(item_id),
      });
    } finally {
      await deleteSetting('force_login');
    }
  });
});

describe('item/pwd', () => {
  test('the captcha is checked first (10206) and is single-use', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw-1' });
    expect(
      (
        await suite.server.api.fail('item/pwd', {
          item_id,
          password: 'pw-1',
          captcha_id: 0,
          captcha: 'x',
        })
      ).error_code,
    ).toBe(10206);
    const c = await captcha();
    expect(
      (
        await suite.server.api.fail('item/pwd', {
          item_id,
          password: 'pw-1',
          captcha_id: c.captcha_id,
          captcha: 'zzzz',
        })
      ).error_code,
    ).toBe(10206);
    const good = await captcha();
    await suite.server.api.ok('item/pwd', { item_id, password: 'pw-1', ...good });
    expect(
      (await suite.server.api.fail('item/pwd', { item_id, password: 'pw-1', ...good })).error_code,
    ).toBe(10206);
  });

  test('a wrong password → 10010, an unknown item → 10101, operator objects → 10101', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw-2' });
    expect(
      (await suite.server.api.fail('item/pwd', { item_id, password: 'nope', ...(await captcha()) }))
        .error_code,
    ).toBe(10010);
    expect(
      (
        await suite.server.api.fail('item/pwd', {
          item_id: 999999999,
          password: 'pw-2',
          ...(await captcha()),
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await suite.server.api.fail('item/pwd', {
          item_id,
          password: { $ne: '' },
          ...(await captcha()),
        })
      ).error_code,
    ).toBe(10101);
  });

  test('the right password (by id, address or page id) answers refer_url; same-site paths only', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw-3', item_domain: 'pwddoc' });
    const pageId = await nextId('page_id');
    await Page.create({
      page_id: pageId,
      item_id,
      cat_id: 0,
      page_title: 'P',
      page_content: 'x',
      addtime: 1,
    });
    forgetCachedReads();
    const refer = Buffer.from(`/${item_id}/${pageId}`).toString('base64');
    expect(
      await suite.server.api.ok('item/pwd', {
        item_id,
        password: 'pw-3',
        refer_url: refer,
        ...(await captcha()),
      }),
    ).toEqual({ refer_url: `/${item_id}/${pageId}` });
    expect(
      await suite.server.api.ok('item/pwd', {
        item_id: 'pwddoc',
        password: 'pw-3',
        ...(await captcha()),
      }),
    ).toEqual({ refer_url: '' });
    expect(
      await suite.server.api.ok('item/pwd', {
        item_id: 0,
        page_id: pageId,
        password: 'pw-3',
        ...(await captcha()),
      }),
    ).toEqual({ refer_url: '' });
    const evil = Buffer.from('https://evil.example/').toString('base64');
    const evil2 = Buffer.from('//evil.example/').toString('base64');
    for (const refer_url of [evil, evil2])
      expect(
        await suite.server.api.ok('item/pwd', {
          item_id,
          password: 'pw-3',
          refer_url,
          ...(await captcha()),
        }),
      ).toEqual({ refer_url: '' });
  });

  test('a public item has no password to enter (10010)', async () => {
    const { item_id } = await makeItem(suite.owner);
    expect(
      (await suite.server.api.fail('item/pwd', { item_id, password: '', ...(await captcha()) }))
        .error_code,
    ).toBe(10010);
  });
});

describe('item/getItemId', () => {
  test('resolves a custom address to the id for those who may visit; others get 10303, unknown 10101', async () => {
    const { item_id } = await makeItem(suite.owner, { item_domain: 'resolveme' });
    expect(await suite.server.api.ok('item/getItemId', { item_domain: 'resolveme' })).toEqual({
      item_id,
    });
    expect(await suite.server.api.ok('item/getItemId', { item_custom_id: 'resolveme' })).toEqual({
      item_id,
    });
    const { item_id: hidden } = await makeItem(suite.owner, {
      item_domain: 'hiddenone',
      password: 'h',
    });
    expect(
      (await as(suite.stranger).fail('item/getItemId', { item_domain: 'hiddenone' })).error_code,
    ).toBe(10303);
    expect(await as(suite.owner).ok('item/getItemId', { item_domain: 'hiddenone' })).toEqual({
      item_id: hidden,
    });
    expect(
      (await suite.server.api.fail('item/getItemId', { item_domain: 'missingone' })).error_code,
    ).toBe(10101);
  });
});
