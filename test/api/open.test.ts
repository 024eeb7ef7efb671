/**
 * ShowDoc's open API over real HTTP: `open/updatePage` on every URL form (the address the open-API
 * dialog advertises included), catalogs created on the fly, a ShowDoc-style comment sync that
 * creates then updates a page, the page/catalog calls, the old `item/updateByApi` name, saves
 * reaching an open editor live, and wrong keys that change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { events, type DomainEvents } from '../../models/platform';
import { Catalog } from '../../models/catalogs/schemas';
import { Page } from '../../models/pages/schemas';
import { PageHistory } from '../../models/pages/schemas';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { postMultipart, samples } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';
import { UploadFile } from '../../models/files/schemas';
import { FilePage } from '../../models/files/schemas';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let owner: TestUser;
let itemId: number, otherItemId: number, runApiItemId: number;
let key: { api_key: string; api_token: string };
let otherKey: { api_key: string; api_token: string };
let runApiKey: { api_key: string; api_token: string };

async function keyOf(itemId: number) {
  return server.api
    .withToken(owner.user_token)
    .ok<{ api_key: string; api_token: string }>('item/getKey', { item_id: itemId });
}

/** What ShowDoc's showdoc_api.sh posts: form fields, no login. */
async function postForm(path: string, fields: Record<string, string>) {
  const response = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  owner = await makeUser();
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Synced docs' }));
  ({ item_id: otherItemId } = await makeItem(owner, { item_name: 'Other' }));
  ({ item_id: runApiItemId } = await makeItem(owner, { item_name: 'RunApi', item_type: 3 }));
  key = await keyOf(itemId);
  otherKey = await keyOf(otherItemId);
  runApiKey = await keyOf(runApiItemId);
});

afterAll(async () => {
  closeAllCollabClients();
  await server.stop();
});

describe('open/updatePage', () => {
  test.each([
    ['/server/api/open/updatePage', 'server form'],
    ['/server/index.php?s=/api/open/updatePage', 'index.php form'],
    ['/api/open/updatePage', 'api form'],
    ['/server/api/item/updateByApi', 'old item/updateByApi name'],
  ])('creates then updates a page by title through %s (%s)', async (path, label) => {
    const title = `Page via ${label}`;
    const first = await postForm(path, {
      ...key,
      cat_name: 'api/v1/users',
      page_title: title,
      page_content: '# first &amp; one',
      s_number: '5',
    });
    expect(first.status).toBe(200);
    const created = JSON.parse(first.text);
    expect(created.error_code).toBe(0);
    const pageId = Number(created.data.page_id);

    const second = JSON.parse(
      (
        await postForm(path, {
          ...key,
          cat_name: 'api/v1/users',
          page_title: title,
          page_content: '# second',
        })
      ).text,
    );
    expect(second.error_code).toBe(0);
    expect(Number(second.data.page_id)).toBe(pageId);

    const page = await Page.findOne({ page_id: pageId }).lean();
    expect(page?.page_content).toBe('# second');
    expect(page?.item_id).toBe(itemId);
    // Entities a script sends are decoded once, as ShowDoc stored them.
    expect(
      await PageHistory.exists({ page_id: pageId, page_content: '# first & one' }),
    ).toBeTruthy();
    const users = await Catalog.findOne({ cat_id: page?.cat_id }).lean();
    expect(users?.cat_name).toBe('users');
    const v1 = await Catalog.findOne({ cat_id: users?.parent_cat_id }).lean();
    expect(v1?.cat_name).toBe('v1');
    const api = await Catalog.findOne({ cat_id: v1?.parent_cat_id }).lean();
    expect(api).toMatchObject({ cat_name: 'api', parent_cat_id: 0, item_id: itemId });
  });

  test('the same path reuses its catalogs instead of creating new ones', async () => {
    const before = await Catalog.countDocuments({ item_id: itemId });
    await server.api.ok('open/updatePage', {
      ...key,
      cat_name: '/api/v1/users',
      page_title: 'Yet another',
      page_content: 'x',
    });
    expect(await Catalog.countDocuments({ item_id: itemId })).toBe(before);
  });

  test('a wrong token or another item key gets 10306 and changes nothing', async () => {
    const pagesBefore = await Page.countDocuments({});
    const catsBefore = await Catalog.countDocuments({});
    const wrong = await server.api.fail('open/updatePage', {
      api_key: key.api_key,
      api_token: otherKey.api_token,
      cat_name: 'nope',
      page_title: 'Should not exist',
      page_content: 'x',
    });
    expect(wrong.error_code).toBe(10306);
    const missing = await server.api.fail('open/updatePage', {
      page_title: 'Should not exist',
      page_content: 'x',
    });
    expect(missing.error_code).toBe(10306);
    expect(await Page.countDocuments({})).toBe(pagesBefore);
    expect(await Catalog.countDocuments({})).toBe(catsBefore);
  });

  test("another item's key writes into its own item only", async () => {
    const data = await server.api.ok<{ page_id: string; item_id: string }>('open/updatePage', {
      ...otherKey,
      page_title: 'Lives in other',
      page_content: 'other',
    });
    expect(Number(data.item_id)).toBe(otherItemId);
    expect(await Page.exists({ item_id: itemId, page_title: 'Lives in other' })).toBeNull();
  });

  test('a save reaches an editor that has the page open, and publishes page.saved', async () => {
    const page = await makePage(owner, itemId, { title: 'Live one', content: 'before' });
    const editor = await openSynced(server.url, page.page_id, owner.user_token);
    await textBecomes(editor, 'before');
    const seen: DomainEvents['page.saved'][] = [];
    const off = events.subscribe('page.saved', (e) => void seen.push(e));
    try {
      await server.api.ok('open/updatePage', {
        ...key,
        page_title: 'Live one',
        page_content: 'after',
      });
      await textBecomes(editor, 'after');
      expect(seen).toContainEqual(
        expect.objectContaining({ pageId: page.page_id, origin: 'open-api', created: false }),
      );
    } finally {
      off();
      editor.destroy();
    }
  });
});

const COMMENT = `<?php
/**
 * showdoc
 * @catalog 测试文档/用户相关
 * @title 用户登录
 * @description 用户登录的接口
 * @method post
 * @url https://www.showdoc.com.cn/home/user/login
 * @header token 可选 string 设备token
 * @param username 必选 string 用户名
 * @param password 必选 string 密码
 * @return {"error_code":0,"data":{"uid":"1","username":"12154545"}}
 * @return_param groupid int 用户组id
 * @remark 这里是备注信息
 * @number 3
 */
function login() {}

/** an ordinary comment without the marker */
`;

describe('open/fromComments', () => {
  test('a ShowDoc-style sync creates then updates the page in ShowDoc’s API page format', async () => {
    const first = await postForm('/server/index.php?s=/api/open/fromComments', {
      ...key,
      content: COMMENT,
    });
    expect(first.text).toContain('成功');
    const page = await Page.findOne({ item_id: itemId, page_title: '用户登录', is_del: 0 }).lean();
    expect(page).not.toBeNull();
    expect(page!.s_number).toBe(3);
    const content = page!.page_content;
    expect(content).toContain('##### 简要描述\n\n- 用户登录的接口');
    expect(content).toContain('##### 请求URL\n\n - `https://www.showdoc.com.cn/home/user/login` ');
    expect(content).toContain('##### 请求方式\n\n- post\n');
    expect(content).toContain('|token|   |  否 |  string |  设备token | \n');
    expect(content).toContain('|username|   |  是 |  string |  用户名 | \n');
    expect(content).toContain('"error_code": 0');
    expect(content).toContain('|groupid| int |  用户组id | \n');
    expect(content).toContain('##### 备注 \n 这里是备注信息\n');
    const cat = await Catalog.findOne({ cat_id: page!.cat_id }).lean();
    expect(cat?.cat_name).toBe('用户相关');

    const second = await postForm('/server/api/open/fromComments', {
      ...key,
      content: COMMENT.replace('用户登录的接口', '登录（第二版）'),
    });
    expect(second.text).toContain('成功');
    const pages = await Page.find({ item_id: itemId, page_title: '用户登录', is_del: 0 }).lean();
    expect(pages).toHaveLength(1);
    expect(pages[0].page_id).toBe(page!.page_id);
    expect(pages[0].page_content).toContain('- 登录（第二版）');
  });

  test('a RunApi item stores the RunApi JSON and keeps values typed in the page', async () => {
    await postForm('/api/open/fromComments', { ...runApiKey, content: COMMENT });
    const page = await Page.findOne({ item_id: runApiItemId, page_title: '用户登录' }).lean();
    const doc = JSON.parse(page!.page_content);
    expect(doc.info).toMatchObject({
      method: 'post',
      url: 'https://www.showdoc.com.cn/home/user/login',
    });
    expect(doc.request.params.formdata.map((p: { name: string }) => p.name)).toEqual([
      'username',
      'password',
    ]);
    doc.request.params.formdata[0].value = 'alice';
    await Page.updateOne(
      { page_id: page!.page_id },
      { $set: { page_content: JSON.stringify(doc) } },
    );
    forgetCachedReads();
    await postForm('/api/open/fromComments', { ...runApiKey, content: COMMENT });
    const again = await Page.findOne({ page_id: page!.page_id }).lean();
    expect(JSON.parse(again!.page_content).request.params.formdata[0].value).toBe('alice');
  });

  test('a wrong key answers ShowDoc’s text and writes nothing', async () => {
    const before = await Page.countDocuments({});
    const answer = await postForm('/server/api/open/fromComments', {
      api_key: key.api_key,
      api_token: 'wrong',
      content: COMMENT.replace('用户登录', '不该出现'),
    });
    expect(answer.text).toContain('api_key或者api_token不匹配');
    expect(await Page.countDocuments({})).toBe(before);
  });
});

describe('the other open/* calls', () => {
  test('getPage, getCatalogTree, catalogs and deletePage', async () => {
    const api = server.api;
    const cat = await api.ok<{ cat_id: string; cat_name: string }>('open/createCatalog', {
      ...key,
      cat_name: 'Made by script',
    });
    expect(cat.cat_name).toBe('Made by script');
    const renamed = await api.ok<{ cat_name: string }>('open/updateCatalog', {
      ...key,
      cat_id: cat.cat_id,
      cat_name: 'Renamed by script',
    });
    expect(renamed.cat_name).toBe('Renamed by script');
    const saved = await api.ok<{ page_id: string }>('open/updatePage', {
      ...key,
      cat_name: 'Renamed by script',
      page_title: 'Read me',
      page_content: 'hello <b>',
    });
    const byTitle = await api.ok<{ page_id: string; page_content: string }>('open/getPage', {
      ...key,
      page_title: 'Read me',
    });
    expect(byTitle.page_id).toBe(saved.page_id);
    const tree = await api.ok<{
      catalogs: { cat_name: string; pages: { page_title: string }[] }[];
    }>('open/getCatalogTree', key);
    const node = tree.catalogs.find((c) => c.cat_name === 'Renamed by script');
    expect(node?.pages.map((p) => p.page_title)).toEqual(['Read me']);

    // Another item's key cannot reach this item's page or catalog.
    expect(
      (await api.fail('open/getPage', { ...otherKey, page_id: saved.page_id })).error_code,
    ).toBe(10101);
    expect(
      (await api.fail('open/deleteCatalog', { ...otherKey, cat_id: cat.cat_id })).error_code,
    ).toBe(10101);
    expect(await Catalog.exists({ cat_id: Number(cat.cat_id) })).toBeTruthy();

    await api.ok('open/deletePage', { ...key, page_id: saved.page_id });
    expect((await Page.findOne({ page_id: Number(saved.page_id) }).lean())?.is_del).toBe(1);
    await api.ok('open/deleteCatalog', { ...key, cat_id: cat.cat_id });
    expect(await Catalog.exists({ cat_id: Number(cat.cat_id) })).toBeNull();
  });
});

describe('open/uploadAttachment and open/deleteAttachment', () => {
  test('a script attaches a file to a page and deletes it again; another key cannot', async () => {
    const page = await makePage(owner, itemId, { title: 'With attachment' });
    const uploaded = await postMultipart(server.url, 'open/uploadAttachment', [
      { name: 'api_key', value: key.api_key },
      { name: 'api_token', value: key.api_token },
      { name: 'page_id', value: String(page.page_id) },
      { name: 'file', filename: 'spec.pdf', content: samples.pdf(), type: 'application/pdf' },
    ]);
    expect(uploaded.body.error_code).toBe(0);
    const data = uploaded.body.data as { url: string; file_id: number; sign: string };
    expect(data.url).toContain(`sign=${data.sign}`);
    expect(await FilePage.exists({ file_id: data.file_id, page_id: page.page_id })).toBeTruthy();

    const refused = await server.api.fail('open/deleteAttachment', {
      ...otherKey,
      file_id: data.file_id,
    });
    expect(refused.error_code).toBe(10101);
    expect(await UploadFile.exists({ file_id: data.file_id })).toBeTruthy();

    await server.api.ok('open/deleteAttachment', { ...key, file_url: data.url });
    expect(await UploadFile.exists({ file_id: data.file_id })).toBeNull();
  });

  test('a wrong token uploads nothing', async () => {
    const before = await UploadFile.countDocuments({});
    const answer = await postMultipart(server.url, 'open/uploadAttachment', [
      { name: 'api_key', value: key.api_key },
      { name: 'api_token', value: 'nope' },
      { name: 'file', filename: 'spec.pdf', content: samples.pdf(), type: 'application/pdf' },
    ]);
    expect(answer.body.error_code).toBe(10306);
    expect(await UploadFile.countDocuments({})).toBe(before);
  });
});
