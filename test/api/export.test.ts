/**
 * export/checkMarkdownLimit, export/word and export/markdown over real HTTP: the .docx is a real
 * Word package (unzipped, its document XML read: headings, text, tables, the embedded picture),
 * one catalog or one page can be chosen, a member limited to one catalog gets only that, the
 * Markdown zip has ShowDoc's layout with no password inside, RunApi items have no Markdown export,
 * readers and strangers are refused.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import SwaggerParser from '@apidevtools/swagger-parser';
import { strFromU8, unzipSync } from 'fflate';
import { download as downloadApi, makeExportedItem } from '../helpers/exportFixture';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
let owner: TestUser, restricted: TestUser, reader: TestUser;
let itemId: number, runApiItemId: number;
let guide: number;
let installPage: number;

const download = (route: string, params: Record<string, string | number>) =>
  downloadApi(suite.server, route, params);

function documentXml(bytes: Uint8Array): { xml: string; files: string[] } {
  const files = unzipSync(bytes);
  return { xml: strFromU8(files['word/document.xml']), files: Object.keys(files) };
}

/** The owner's export/word of the item, narrowed by `params`. */
const ownerWord = async (params: Record<string, number>) =>
  documentXml(
    (await download('export/word', { item_id: itemId, user_token: owner.user_token, ...params }))
      .bytes,
  );

/** The visible text of a document.xml, paragraph by paragraph. */
function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)]
    .map((p) => [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''))
    .filter(Boolean);
}

beforeAll(async () => {
  [owner, restricted, reader] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ itemId, guide, installPage } = await makeExportedItem(
    suite.server,
    { owner, restricted, reader },
    {
      item: { item_name: 'Exported', password: 'visit-secret' },
      installContent:
        '## Steps\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nnpm i\n```',
      pictureOnInstallPage: true,
    },
  ));
  ({ item_id: runApiItemId } = await makeItem(owner, { item_name: 'RunApi', item_type: 3 }));
});

describe('export/word', () => {
  test('the whole item: a valid .docx with ShowDoc’s numbered outline, text, table and picture', async () => {
    const { response, bytes } = await download('export/word', {
      item_id: itemId,
      user_token: owner.user_token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('wordprocessingml');
    expect(response.headers.get('content-disposition')).toContain('.docx');
    const { xml, files } = documentXml(bytes);
    expect(files).toContain('[Content_Types].xml');
    expect(files.some((f) => f.startsWith('word/media/'))).toBe(true);
    expect(xml).toContain('<w:drawing>');
    expect(xml).toContain('<w:tbl>');
    const text = paragraphs(xml);
    expect(text).toEqual(
      expect.arrayContaining([
        '1、Welcome',
        'Hello',
        'Root bold text.',
        '2、Guide',
        '2.1、Install',
        'Steps',
        'one',
        'npm i',
        '2.1、Deep',
        '2.1.1、Deeper',
        '3、API',
        '3.1、Endpoints',
      ]),
    );
    expect(xml).not.toContain('secret draft');
  });

  test('one catalog or one page only', async () => {
    const cat = await ownerWord({ cat_id: guide });
    const catText = paragraphs(cat.xml);
    expect(catText[0]).toBe('1、Guide');
    expect(catText).toContain('1.1、Install');
    expect(catText).not.toContain('3、API');
    expect(cat.xml).not.toContain('Welcome');

    const page = await ownerWord({ page_id: installPage });
    expect(paragraphs(page.xml)[0]).toBe('Install');
    expect(page.xml).not.toContain('Deeper');
  });

  test('a member limited to one catalog gets only that catalog, and is refused the others', async () => {
    const { xml } = documentXml(
      (await download('export/word', { item_id: itemId, user_token: restricted.user_token })).bytes,
    );
    const text = paragraphs(xml);
    expect(text).toContain('1、API');
    expect(xml).not.toContain('Welcome');
    expect(xml).not.toContain('Install');
    const refused = await download('export/word', {
      item_id: itemId,
      cat_id: guide,
      user_token: restricted.user_token,
    });
    expect(JSON.parse(strFromU8(refused.bytes)).error_code).toBe(10302);
  });

  test('a page of API-document JSON nested 10,000 deep exports as its text, not a 500', async () => {
    const { item_id: deepItem } = await makeItem(owner, { item_name: 'Deep' });
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    await makePage(owner, deepItem, {
      title: 'Deep API',
      content:
        '{"info":{"method":"post","url":"https://x.test/","title":"Deep API"},' +
        `"request":{"params":{"mode":"json","json":${deep}}},"response":${deep}}`,
    });
    const { response, bytes } = await download('export/word', {
      item_id: deepItem,
      user_token: owner.user_token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('wordprocessingml');
    expect(paragraphs(documentXml(bytes).xml)[0]).toMatch(/Deep API$/);
  });

  test('a read-only member and an anonymous visitor are refused', async () => {
    const readOnly = await download('export/word', {
      item_id: itemId,
      user_token: reader.user_token,
    });
    expect(JSON.parse(strFromU8(readOnly.bytes)).error_code).toBe(10302);
    const anonymous = await download('export/word', { item_id: itemId });
    expect(JSON.parse(strFromU8(anonymous.bytes)).error_code).toBe(10102);
  });
});

describe('export/markdown', () => {
  test('ShowDoc’s zip layout with info.json, and no password inside', async () => {
    await suite.server.api.withToken(owner.user_token).ok('export/checkMarkdownLimit', {
      export_format: 'markdown',
    });
    const { response, bytes } = await download('export/markdown', {
      item_id: itemId,
      user_token: owner.user_token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual(
      [
        'API/Endpoints.md',
        'Guide/Deep/Deeper.md',
        'Guide/Install.md',
        'Welcome.md',
        'info.json',
      ].sort(),
    );
    expect(strFromU8(files['Guide/Install.md'])).toContain('| a | b |');
    const infoText = strFromU8(files['info.json']);
    expect(infoText).not.toContain('visit-secret');
    expect(infoText).not.toMatch(/"password"|api_token|user_token/);
    const info = JSON.parse(infoText);
    expect(info).toMatchObject({ item_name: 'Exported', item_type: 1 });
    expect(info.pages.pages.map((p: { page_title: string }) => p.page_title)).toEqual(['Welcome']);
    expect(info.pages.catalogs.map((c: { cat_name: string }) => c.cat_name)).toEqual([
      'Guide',
      'API',
    ]);
  });

  test('one catalog only (cat_id, a Quire addition)', async () => {
    const { bytes } = await download('export/markdown', {
      item_id: itemId,
      cat_id: guide,
      user_token: owner.user_token,
    });
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual(
      ['Guide/Deep/Deeper.md', 'Guide/Install.md', 'info.json'].sort(),
    );
  });

  test('RunApi items have no Markdown export; a read-only member is refused', async () => {
    const runApi = await download('export/markdown', {
      item_id: runApiItemId,
      user_token: owner.user_token,
    });
    expect(JSON.parse(strFromU8(runApi.bytes))).toMatchObject({ error_code: 10101 });
    const readOnly = await download('export/markdown', {
      item_id: itemId,
      user_token: reader.user_token,
    });
    expect(JSON.parse(strFromU8(readOnly.bytes)).error_code).toBe(10302);
  });
});

describe('export/openapi (beyond ShowDoc)', () => {
  test('an OpenAPI 3 document from the item’s API pages that the parser validates', async () => {
    const { item_id: apiItem } = await makeItem(owner, { item_name: 'Service API', item_type: 3 });
    const key = await suite.server.api
      .withToken(owner.user_token)
      .ok<{ api_key: string; api_token: string }>('item/getKey', { item_id: apiItem });
    const comments = `
/**
 * showdoc
 * @catalog Users
 * @title Get a user
 * @method get
 * @url https://api.example.com/users/{id}
 * @param fields 可选 string which fields
 * @return {"id":1,"name":"Ann"}
 * @return_param name string the name
 */
/**
 * showdoc
 * @catalog Users
 * @title Create a user
 * @method post
 * @url https://api.example.com/users
 * @param name 必选 string the name
 */`;
    const sync = await fetch(new URL('/server/api/open/fromComments', suite.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...key, content: comments }).toString(),
    });
    expect(await sync.text()).toContain('成功');
    // A type-3 item is read-only to people: its pages arrive through its key (issue 32 #4).
    const notes = await fetch(new URL('/server/api/open/updatePage', suite.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...key,
        page_title: 'Plain notes',
        page_content: '# not an API page',
      }).toString(),
    });
    expect((await notes.json()).error_code).toBe(0);

    const { response, bytes } = await download('export/openapi', {
      item_id: apiItem,
      user_token: owner.user_token,
    });
    expect(response.headers.get('content-disposition')).toContain('openapi.json');
    const doc = JSON.parse(strFromU8(bytes));
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/users', '/users/{id}']);
    const get = doc.paths['/users/{id}'].get;
    expect(get).toMatchObject({ summary: 'Get a user', tags: ['Users'] });
    expect(
      get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort(),
    ).toEqual(['path:id', 'query:fields']);
    expect(get.responses['200'].content['application/json'].example).toEqual({
      id: 1,
      name: 'Ann',
    });
    const post = doc.paths['/users'].post;
    expect(post.requestBody.content['multipart/form-data'].schema).toMatchObject({
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
  });

  test('an item without API pages gets a clear error', async () => {
    const { bytes } = await download('export/openapi', {
      item_id: itemId,
      user_token: owner.user_token,
    });
    expect(JSON.parse(strFromU8(bytes))).toMatchObject({ error_code: 10101 });
  });
});
