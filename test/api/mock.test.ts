/**
 * mock/add, mock/infoByPageId and the public mock URLs over real HTTP: who may save and read,
 * the JSON-only and path rules (regex paths vetted against ReDoS), one mock per page keeping its
 * key, serving by key and by path (exact before regex) with Mock.js expansion and HTML-safe
 * escaping, the 404/400 answers, and mocks going quiet while their page is in the recycle bin.
 */
import { describe, expect, test } from '@jest/globals';
import { Mock } from '../../models/mocks/schemas/mock';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { type TestUser } from '../helpers/users';

const suite = apiSuite({ item: { password: 'secret' } });

const { as } = suite;

interface Saved {
  page_id: number;
  path: string;
  unique_key: string;
}

async function addMock(user: TestUser, params: Record<string, string | number>): Promise<Saved> {
  return as(user).ok<Saved>('mock/add', params);
}

async function get(pathname: string): Promise<{ status: number; type: string; text: string }> {
  const response = await suite.server.request(pathname);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

const byPath = (item: number, path: string) =>
  get(`/server/mock-path/${item}?path=${encodeURIComponent(path)}`);

describe('mock/add', () => {
  test('an editor saves a mock; saving again updates it and keeps the key', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const first = await addMock(suite.editor, {
      page_id: page.page_id,
      template: '{"a": 1}',
      path: 'users/list',
    });
    expect(first).toEqual({
      page_id: page.page_id,
      path: '/users/list',
      unique_key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const second = await addMock(suite.owner, {
      page_id: page.page_id,
      template: '{"b": 2}',
      path: '/users/all',
    });
    expect(second.unique_key).toBe(first.unique_key);
    expect(await Mock.countDocuments({ page_id: page.page_id })).toBe(1);
    const row = await as(suite.owner).ok<Record<string, string>>('mock/infoByPageId', {
      page_id: page.page_id,
    });
    expect(row).toMatchObject({
      unique_key: first.unique_key,
      uid: String(suite.owner.uid),
      page_id: String(page.page_id),
      item_id: String(suite.itemId),
      view_times: '0',
      template: '{&quot;b&quot;: 2}', // escaped, as ShowDoc serves it; clients un-escape once
      path: '/users/all',
    });
    expect(row.addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // An empty path is the root.
    expect((await addMock(suite.owner, { page_id: page.page_id, template: '{}' })).path).toBe('/');
  });

  test('anonymous → 10102; readers → 10303; strangers and missing page → 10101; nothing written', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const params = { page_id: page.page_id, template: '{"a":1}', path: '/x' };
    expect((await suite.server.api.fail('mock/add', params)).error_code).toBe(10102);
    expect((await as(suite.reader).fail('mock/add', params)).error_code).toBe(10303);
    // A stranger cannot see the page at all: the answer is the missing page's (issue #16).
    expect((await as(suite.stranger).fail('mock/add', params)).error_code).toBe(10101);
    expect((await as(suite.owner).fail('mock/add', { ...params, page_id: 0 })).error_code).toBe(
      10101,
    );
    expect(
      (await as(suite.owner).fail('mock/add', { ...params, page_id: 999_999_999 })).error_code,
    ).toBe(10101);
    expect(await Mock.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('only JSON templates (un-escaped once, as ShowDoc reads them)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    for (const template of ['', 'not json', '{"a":', "{'a': 1}"]) {
      const answer = await as(suite.owner).fail('mock/add', { page_id: page.page_id, template });
      expect(answer).toMatchObject({ error_code: 10101, error_message: 'Only JSON is allowed' });
    }
    await addMock(suite.owner, { page_id: page.page_id, template: '{&quot;a&quot;: 1}' });
  });

  test('a template nested deeper than the input limit is refused with a clear error, nothing stored', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const answer = await as(suite.owner).fail('mock/add', {
      page_id: page.page_id,
      template: deep,
    });
    expect(answer).toMatchObject({
      error_code: 10101,
      error_message: 'The mock template is nested too deeply (at most 100 levels)',
    });
    expect(await Mock.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('regex paths must compile, stay short and be safe from catastrophic backtracking', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const refuse = async (path: string, message: RegExp) => {
      const answer = await as(suite.owner).fail('mock/add', {
        page_id: page.page_id,
        template: '{}',
        path,
      });
      expect(answer.error_code).toBe(10101);
      expect(answer.error_message).toMatch(message);
    };
    await refuse('~(a+)+$', /nested quantified/);
    await refuse('~/x/(\\d+/)*end', /nested quantified/);
    await refuse('~/(a|a)+', /duplicate alternatives/);
    await refuse('~/a{1,2}b{1,2}c{1,2}d{1,2}', /too many/);
    await refuse('~/users/(', /not valid/);
    await refuse(`~/${'a'.repeat(500)}`, /longer than 500/);
    await refuse('~(a*)*b', /nested quantified/);
    const saved = await addMock(suite.owner, {
      page_id: page.page_id,
      template: '{}',
      path: '~/users/\\d+',
    });
    expect(saved.path).toBe('~/users/\\d+');
  });

  test('templates that could run code or generate huge answers are refused', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    for (const template of [
      JSON.stringify({ a: '@string(process.exit(1), 3)' }),
      JSON.stringify({ a: '@string(globalThis.x=1)' }),
      JSON.stringify({ 'list|100000000': ['x'] }),
      JSON.stringify({ 'a|1000': [{ 'b|1000': ['x'] }] }),
      JSON.stringify({ a: '@string(100000000)' }),
      JSON.stringify({ 'n|1-5.1-1000000': 1 }),
    ])
      expect(
        (await as(suite.owner).fail('mock/add', { page_id: page.page_id, template })).error_code,
      ).toBe(10101);
    expect((globalThis as Record<string, unknown>).x).toBeUndefined();
    await addMock(suite.owner, {
      page_id: page.page_id,
      template: JSON.stringify({ s: '@string("lower", 5)', p: "@pick(['a', 'b'])" }),
    });
  });
});

describe('mock/infoByPageId', () => {
  test('no mock → []; readers see it; strangers without the password → as a missing page; with it, yes', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(await as(suite.reader).ok('mock/infoByPageId', { page_id: page.page_id })).toEqual([]);
    await addMock(suite.owner, { page_id: page.page_id, template: '{}', path: '/r' });
    expect(await as(suite.reader).ok('mock/infoByPageId', { page_id: page.page_id })).toMatchObject(
      {
        path: '/r',
      },
    );
    // Without the password the page is not there for them (issue #16): a missing page's answer.
    expect(
      (await as(suite.stranger).fail('mock/infoByPageId', { page_id: page.page_id })).error_code,
    ).toBe(10101);
    expect(
      (await suite.server.api.fail('mock/infoByPageId', { page_id: page.page_id })).error_code,
    ).toBe(10101);
    expect(
      await suite.server.api.ok('mock/infoByPageId', {
        page_id: page.page_id,
        _item_pwd: 'secret',
      }),
    ).toMatchObject({ path: '/r' });
  });
});

describe('serving', () => {
  test('by key: Mock.js expansion as raw JSON; unknown key → 404 "no such key"', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const { unique_key } = await addMock(suite.owner, {
      page_id: page.page_id,
      template: JSON.stringify({ 'id|1-10': 1, name: '@name', 'list|3': ['x'], fixed: 'ok' }),
      path: '/by-key',
    });
    for (const url of [
      `/server/mock-data/${unique_key}`,
      `/server/index.php?s=mock-data/${unique_key}`,
    ]) {
      const answer = await get(url);
      expect(answer.status).toBe(200);
      expect(answer.type).toMatch(/^application\/json/);
      const body = JSON.parse(answer.text) as Record<string, unknown>;
      expect(body.id).toEqual(expect.any(Number));
      expect(body.id as number).toBeGreaterThanOrEqual(1);
      expect(body.id as number).toBeLessThanOrEqual(10);
      expect(body.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(body.list).toEqual(['x', 'x', 'x']);
      expect(body.fixed).toBe('ok');
    }
    expect(await get(`/server/mock-data/${'0'.repeat(32)}`)).toMatchObject({
      status: 404,
      text: 'no such key',
    });
    expect(await get('/server/mock-data/not-a-key')).toMatchObject({ status: 404 });
  });

  test('HTML-significant characters come back as \\u00XX escapes', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const { unique_key } = await addMock(suite.owner, {
      page_id: page.page_id,
      template: JSON.stringify({ html: `<b class="x">Tom & Jerry's</b>` }),
    });
    const answer = await get(`/server/mock-data/${unique_key}`);
    expect(answer.text).toBe(
      '{"html":"\\u003Cb class=\\u0022x\\u0022\\u003ETom \\u0026 Jerry\\u0027s\\u003C/b\\u003E"}',
    );
    expect(JSON.parse(answer.text)).toEqual({ html: `<b class="x">Tom & Jerry's</b>` });
  });

  test('by path: exact before regex, regex in id order, views counted; 404 and 400 answers', async () => {
    const { item_id: item } = await makeItem(suite.owner);
    const [regexPage, exactPage, laterRegexPage] = [
      await makePage(suite.owner, item),
      await makePage(suite.owner, item),
      await makePage(suite.owner, item),
    ];
    await addMock(suite.owner, {
      page_id: regexPage.page_id,
      template: '{"via":"regex"}',
      path: '~/users/\\d+',
    });
    await addMock(suite.owner, {
      page_id: exactPage.page_id,
      template: '{"via":"exact"}',
      path: '/users/7',
    });
    await addMock(suite.owner, {
      page_id: laterRegexPage.page_id,
      template: '{"via":"later"}',
      path: '~/users/.*',
    });

    expect(JSON.parse((await byPath(item, '/users/7')).text)).toEqual({ via: 'exact' });
    expect(JSON.parse((await byPath(item, '/users/8')).text)).toEqual({ via: 'regex' });
    expect(JSON.parse((await byPath(item, '/users/abc')).text)).toEqual({ via: 'later' });
    // The whole path must match.
    expect(await byPath(item, '/other')).toMatchObject({ status: 404, text: 'no such path' });
    // Another item's paths are not this item's.
    const { item_id: otherItem } = await makeItem(suite.owner);
    expect(await byPath(otherItem, '/users/7')).toMatchObject({ status: 404 });
    expect(await byPath(item, `/${'a'.repeat(2048)}`)).toMatchObject({ status: 400 });
    expect(await get(`/server/mock-path/abc?path=/users/7`)).toMatchObject({ status: 404 });
    const viaIndex = await get(`/server/index.php?s=mock-path/${item}&path=/users/7`);
    expect(JSON.parse(viaIndex.text)).toEqual({ via: 'exact' });

    const row = await as(suite.owner).ok<{ view_times: string }>('mock/infoByPageId', {
      page_id: exactPage.page_id,
    });
    expect(row.view_times).toBe('2');
  });

  test('a page in the recycle bin silences its mock; restoring it brings the mock back', async () => {
    const { item_id: item } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, item);
    const { unique_key } = await addMock(suite.owner, {
      page_id: page.page_id,
      template: '{"alive": true}',
      path: '/alive',
    });
    await as(suite.owner).ok('page/delete', { page_id: page.page_id, item_id: item });
    expect(await get(`/server/mock-data/${unique_key}`)).toMatchObject({ status: 404 });
    expect(await byPath(item, '/alive')).toMatchObject({ status: 404, text: 'no such path' });
    await as(suite.owner).ok('recycle/recover', { item_id: item, page_id: page.page_id });
    expect(JSON.parse((await get(`/server/mock-data/${unique_key}`)).text)).toEqual({
      alive: true,
    });
    expect(JSON.parse((await byPath(item, '/alive')).text)).toEqual({ alive: true });
  });
});
