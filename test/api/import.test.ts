/**
 * import/auto over real HTTP (multipart): a ShowDoc/Quire export round trip, Markdown files and
 * zips (folders → catalogs, three levels at most), Postman v2.1, Swagger 2 and OpenAPI 3 (JSON and
 * YAML), progress pushed to the importer's socket, and every hostile or broken input — zip-slip,
 * symlink, bomb, 10,000 entries, malformed JSON/YAML, a non-manager — refused with nothing
 * written. A failure half-way through an import (the catalog quota) rolls everything back.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { Catalog } from '../../models/catalogs/schemas';
import { Item } from '../../models/items/schemas';
import { Page } from '../../models/pages/schemas';
import { PageHistory } from '../../models/pages/schemas';
import { nextId } from '../../models/platform';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { postMultipart, type Part } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = serverSuite({ teardown: closeAllSockets });
let owner: TestUser, editor: TestUser;
let targetItem: number;

function importParts(
  user: TestUser,
  filename: string,
  content: Buffer | string,
  extra: Record<string, string> = {},
): Part[] {
  return [
    { name: 'user_token', value: user.user_token },
    ...Object.entries(extra).map(([name, value]) => ({ name, value })),
    {
      name: 'file',
      filename,
      content: typeof content === 'string' ? Buffer.from(content) : content,
    },
  ];
}

async function importFile(
  user: TestUser,
  filename: string,
  content: Buffer | string,
  extra: Record<string, string> = {},
) {
  return postMultipart(
    suite.server.url,
    'import/auto',
    importParts(user, filename, content, extra),
  );
}

function zip(files: Zippable): Buffer {
  return Buffer.from(zipSync(files));
}

/** The item's tree as nested names and contents, for comparing two items. */
async function treeOf(itemId: number) {
  const catalogs = await Catalog.find({ item_id: itemId }).lean();
  const pages = await Page.find({ item_id: itemId, is_del: 0 }).lean();
  const pathOf = (catId: number): string => {
    const cat = catalogs.find((c) => c.cat_id === catId);
    return cat ? `${pathOf(cat.parent_cat_id)}/${cat.cat_name}` : '';
  };
  return pages
    .map((p) => ({ path: pathOf(p.cat_id), title: p.page_title, content: p.page_content }))
    .sort((a, b) => {
      const [x, y] = [`${a.path}/${a.title}`, `${b.path}/${b.title}`];
      return x < y ? -1 : x > y ? 1 : 0;
    });
}

async function counts() {
  return {
    items: await Item.countDocuments({}),
    pages: await Page.countDocuments({}),
    catalogs: await Catalog.countDocuments({}),
    history: await PageHistory.countDocuments({}),
  };
}

beforeAll(async () => {
  [owner, editor] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: targetItem } = await makeItem(owner, { item_name: 'Target' }));
  await addMember(targetItem, editor, 1);
});

describe('round trip', () => {
  test('export Markdown → import into a new item gives the same tree and contents', async () => {
    const { item_id: source } = await makeItem(owner, { item_name: 'Round trip' });
    const a = await makeCatalog(owner, source, 'Alpha');
    const a1 = await makeCatalog(owner, source, 'Alpha one', a);
    await makePage(owner, source, { title: 'Root', content: '# Root\n\n<b>tags</b> & "quotes"' });
    await makePage(owner, source, { title: 'In alpha', catId: a, content: 'alpha &amp; text' });
    await makePage(owner, source, { title: 'Deeper', catId: a1, content: '| a |\n|---|\n| 1 |' });
    const url = new URL('/api/export/markdown', suite.server.url);
    url.searchParams.set('item_id', String(source));
    url.searchParams.set('user_token', owner.user_token);
    const exported = Buffer.from(await (await fetch(url)).arrayBuffer());

    const answer = await importFile(owner, 'showdoc.zip', exported);
    expect(answer.body).toMatchObject({ error_code: 0 });
    const data = answer.body.data as { item_id: number; pages: number; source: string };
    expect(data).toMatchObject({ pages: 3, source: 'showdoc' });
    expect(data.item_id).not.toBe(source);
    const item = await Item.findOne({ item_id: data.item_id }).lean();
    expect(item).toMatchObject({ item_name: 'Round trip', uid: owner.uid });
    expect(await treeOf(data.item_id)).toEqual(await treeOf(source));
  });
});

describe('Markdown', () => {
  test('a zip of Markdown files: folders become catalogs, deeper than three levels folded with a note', async () => {
    const answer = await importFile(
      owner,
      'handbook.zip',
      zip({
        'README.md': strToU8('# readme'),
        'guide/intro.md': strToU8('intro'),
        'guide/setup/linux.md': strToU8('linux'),
        'a/b/c/d/e/deep.md': strToU8('deep'),
        'images/logo.png': new Uint8Array([1, 2, 3]),
        '__MACOSX/guide/._intro.md': strToU8('junk'),
      }),
    );
    expect(answer.body).toMatchObject({ error_code: 0 });
    const data = answer.body.data as { item_id: number; notes: string[] };
    expect((await Item.findOne({ item_id: data.item_id }).lean())?.item_name).toBe('handbook');
    expect(await treeOf(data.item_id)).toEqual([
      { path: '', title: 'README', content: '# readme' },
      { path: '/a/b/c', title: 'deep', content: 'deep' },
      { path: '/guide', title: 'intro', content: 'intro' },
      { path: '/guide/setup', title: 'linux', content: 'linux' },
    ]);
    expect(data.notes.join(' ')).toContain('a/b/c/d/e');
  });

  test('a plain Markdown file into an existing item, by a manager', async () => {
    const before = await Page.countDocuments({ item_id: targetItem });
    const answer = await importFile(owner, 'notes.md', '# Notes\n\ntext', {
      item_id: String(targetItem),
    });
    expect(answer.body.error_code).toBe(0);
    expect((answer.body.data as { item_id: number }).item_id).toBe(targetItem);
    expect(await Page.countDocuments({ item_id: targetItem })).toBe(before + 1);
    const page = await Page.findOne({ item_id: targetItem, page_title: 'notes' }).lean();
    expect(page?.page_content).toBe('# Notes\n\ntext');
  });
});

const OPENAPI_YAML = `openapi: 3.0.0
info:
  title: Pet store
  version: 1.0.0
servers:
  - url: https://api.example.com/v1
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      parameters:
        - name: limit
          in: query
          required: true
          description: how many
          schema: { type: integer }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
    post:
      tags: [pets]
      summary: Add a pet
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Pet' }
      responses:
        '201': { description: created }
  /health:
    get:
      operationId: health
      responses:
        '200': { description: ok }
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        id: { type: integer, description: the id }
        name: { type: string, description: the name, example: Rex }
`;

const SWAGGER2 = {
  swagger: '2.0',
  info: { title: 'Old API', version: '1' },
  host: 'old.example.com',
  basePath: '/api',
  schemes: ['https'],
  paths: {
    '/login': {
      post: {
        tags: ['user'],
        summary: 'Log in',
        parameters: [
          { name: 'username', in: 'formData', required: true, type: 'string', description: 'who' },
        ],
        responses: {
          200: {
            description: 'ok',
            schema: { type: 'object', properties: { token: { type: 'string' } } },
          },
        },
      },
    },
  },
};

const POSTMAN = {
  info: {
    name: 'My collection',
    schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
  },
  item: [
    {
      name: 'Users',
      item: [
        {
          name: 'Get user',
          request: {
            method: 'GET',
            header: [{ key: 'X-Token', value: 'abc' }],
            url: { raw: 'https://api.example.com/users?id=1', query: [{ key: 'id', value: '1' }] },
          },
          response: [{ body: '{"id":1}' }],
        },
      ],
    },
    {
      name: 'Create user',
      request: {
        method: 'POST',
        body: { mode: 'raw', raw: '{"name":"a"}' },
        url: 'https://api.example.com/users',
      },
    },
  ],
};

describe('API specifications', () => {
  test('OpenAPI 3 (YAML): one page per operation in ShowDoc’s API page format, catalogs by tag', async () => {
    const answer = await importFile(owner, 'petstore.yaml', OPENAPI_YAML);
    expect(answer.body.error_code).toBe(0);
    const { item_id: itemId } = answer.body.data as { item_id: number };
    expect((await Item.findOne({ item_id: itemId }).lean())?.item_name).toBe('Pet store');
    const tree = await treeOf(itemId);
    expect(tree.map((p) => `${p.path}/${p.title}`)).toEqual([
      '/from swagger/health',
      '/pets/Add a pet',
      '/pets/List pets',
    ]);
    const list = tree.find((p) => p.title === 'List pets')!.content;
    expect(list).toContain('##### 请求URL\n\n - `https://api.example.com/v1/pets` ');
    expect(list).toContain('##### 请求方式\n\n- get\n');
    expect(list).toContain('|limit|  |  是 |  integer |  how many | \n');
    expect(list).toContain('"name": "Rex"');
    const add = tree.find((p) => p.title === 'Add a pet')!.content;
    expect(add).toContain('##### json字段说明');
    expect(add).toContain('|name|  是 |  string |  the name | \n');
  });

  test('Swagger 2 (JSON) into an existing item', async () => {
    const answer = await importFile(owner, 'old.json', JSON.stringify(SWAGGER2), {
      item_id: String(targetItem),
    });
    expect(answer.body.error_code).toBe(0);
    const page = await Page.findOne({ item_id: targetItem, page_title: 'Log in' }).lean();
    expect(page?.page_content).toContain('`https://old.example.com/api/login`');
    expect(page?.page_content).toContain('|username|   |  是 |  string |  who | \n');
    const cat = await Catalog.findOne({ cat_id: page?.cat_id }).lean();
    expect(cat?.cat_name).toBe('user');
  });

  test('Postman collection v2.1: folders → catalogs, requests → pages', async () => {
    const answer = await importFile(owner, 'collection.json', JSON.stringify(POSTMAN));
    expect(answer.body.error_code).toBe(0);
    const { item_id: itemId } = answer.body.data as { item_id: number };
    const tree = await treeOf(itemId);
    expect(tree.map((p) => `${p.path}/${p.title}`)).toEqual(['/Create user', '/Users/Get user']);
    const get = tree.find((p) => p.title === 'Get user')!.content;
    expect(get).toContain('`https://api.example.com/users`');
    expect(get).toContain('|X-Token|  abc |');
    expect(get).toContain('"id": 1');
  });
});

describe('progress', () => {
  test('a long import pushes its progress to the importing user’s socket', async () => {
    const client = await connectClient(suite.server.url, { user_token: owner.user_token });
    const files: Zippable = {};
    for (let i = 0; i < 25; i++)
      files[`part/page-${String(i).padStart(2, '0')}.md`] = strToU8(`page ${i}`);
    const answer = await importFile(owner, 'many.zip', zip(files), { import_id: 'job-1' });
    expect(answer.body.error_code).toBe(0);
    const last = await client.waitFor('import:progress', (p) => p.done === 25);
    expect(last).toEqual({ import_id: 'job-1', done: 25, total: 25 });
    const steps = client.all('import:progress').map((p) => p.done);
    expect(steps).toEqual([0, 10, 20, 25]);
  });
});

describe('bad input changes nothing', () => {
  const bomb = () => {
    const zeros = new Uint8Array(30 * 1024 * 1024);
    return zip({ 'big.md': [zeros, { level: 9 }] });
  };
  const manyEntries = () => {
    const files: Zippable = {};
    for (let i = 0; i < 10_000; i++) files[`f${i}.md`] = strToU8('x');
    return zip(files);
  };
  const symlink = () =>
    zip({
      'ok.md': strToU8('fine'),
      'link.md': [strToU8('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    });

  test.each([
    [
      'zip-slip',
      'slip.zip',
      () => zip({ 'ok.md': strToU8('a'), '../../evil.md': strToU8('b') }),
      /unsafe path/,
    ],
    ['a symbolic link', 'link.zip', symlink, /symbolic link/],
    ['a zip bomb', 'bomb.zip', bomb, /bomb|larger than allowed/],
    ['10,000 entries', 'many.zip', manyEntries, /more than 5000 entries/],
    [
      'a damaged zip',
      'broken.zip',
      () => Buffer.from('PK\u0003\u0004 nonsense'),
      /not a readable zip/,
    ],
    ['malformed JSON', 'api.json', () => Buffer.from('{"swagger": "2.0", '), /not valid JSON/],
    [
      'malformed YAML',
      'api.yaml',
      () => Buffer.from('openapi: 3.0.0\ninfo: [unclosed\n'),
      /not valid YAML/,
    ],
    [
      'an invalid OpenAPI document',
      'api.json',
      () =>
        Buffer.from(
          JSON.stringify({
            openapi: '3.0.0',
            info: { title: 'x' },
            paths: { '/a': { get: { responses: { 200: { $ref: '#/nope' } } } } },
          }),
        ),
      /Invalid Swagger\/OpenAPI/,
    ],
    ['an unknown JSON', 'data.json', () => Buffer.from('{"a":1}'), /Unsupported file/],
    ['an unsupported type', 'image.png', () => Buffer.from('png'), /Only \.zip/],
  ])('%s → a clear error', async (_label, filename, content, message) => {
    const before = await counts();
    const answer = await importFile(owner, filename, content());
    expect(answer.body.error_code).toBe(10101);
    expect(String(answer.body.error_message)).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  test('an editor who is not a manager may not import into the item', async () => {
    const before = await counts();
    const answer = await importFile(editor, 'notes.md', '# x', { item_id: String(targetItem) });
    expect(answer.body.error_code).toBe(10302);
    expect(await counts()).toEqual(before);
  });

  test('a failure half-way (the catalog quota) undoes the whole import', async () => {
    const { item_id: itemId } = await makeItem(owner, { item_name: 'Nearly full' });
    const now = Math.floor(Date.now() / 1000);
    const filler = [];
    for (let i = 0; i < 1497; i++)
      filler.push({
        cat_id: await nextId('cat_id'),
        cat_name: `c${i}`,
        item_id: itemId,
        addtime: now,
        parent_cat_id: 0,
        level: 2,
        s_number: 99,
      });
    await Catalog.insertMany(filler);
    forgetCachedReads();
    const before = await counts();
    const files: Zippable = {};
    for (let i = 0; i < 6; i++) files[`folder${i}/page.md`] = strToU8(`page ${i}`);
    const answer = await importFile(owner, 'over.zip', zip(files), { item_id: String(itemId) });
    expect(answer.body.error_code).toBe(10100);
    expect(await counts()).toEqual(before);
    expect(await Page.countDocuments({ item_id: itemId })).toBe(0);
  });
});

describe('nesting depth: every importer answers a clear error quickly, nothing written', () => {
  /** `open` + `inner` + `close`, `levels` times around `inner` — built as text, not recursively. */
  const nest = (levels: number, open: string, inner: string, close: string) =>
    open.repeat(levels) + inner + close.repeat(levels);
  const catalogs = (levels: number) =>
    JSON.stringify({
      item_name: 'Deep',
      item_type: 1,
      pages: { pages: [], catalogs: ['@'] },
    }).replace(
      '"@"',
      nest(
        levels,
        '{"cat_name":"c","pages":[{"page_title":"p","page_content":"x"}],"catalogs":[',
        '',
        ']}',
      ),
    );

  test.each([
    [
      'a ShowDoc zip whose catalogs nest 10,000 deep',
      'showdoc.zip',
      () => zip({ 'info.json': strToU8(catalogs(10_000)) }),
      /info\.json in the zip is nested too deeply \(at most 100 levels\)/,
    ],
    [
      'a Markdown zip with folders 10,000 deep',
      'notes.zip',
      () => zip({ [`${'d/'.repeat(10_000)}deep.md`]: strToU8('# deep') }),
      /A folder in the zip is nested too deeply/,
    ],
    [
      'a Postman collection with folders 10,000 deep',
      'collection.json',
      () =>
        Buffer.from(
          `{"info":{"name":"Deep","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},"item":[${nest(10_000, '{"name":"f","item":[', '{"name":"r","request":{"method":"GET","url":"https://x.test/"}}', ']}')}]}`,
        ),
      /The file is nested too deeply/,
    ],
    [
      'an OpenAPI JSON whose schema nests 10,000 deep',
      'api.json',
      () =>
        Buffer.from(
          `{"openapi":"3.0.0","info":{"title":"Deep","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${nest(10_000, '{"type":"object","properties":{"a":', '{"type":"string"}', '}}')}}}}}}}}}`,
        ),
      /The file is nested too deeply/,
    ],
    [
      'an OpenAPI YAML with flow collections 10,000 deep',
      'api.yaml',
      () =>
        Buffer.from(
          `openapi: 3.0.0\ninfo: {title: Deep, version: '1'}\npaths: {}\nx-deep: ${nest(10_000, '[', '1', ']')}\n`,
        ),
      /The file is nested too deeply/,
    ],
    [
      'an OpenAPI YAML with block mappings 3,000 deep',
      'api.yml',
      () =>
        Buffer.from(
          `openapi: 3.0.0\ninfo:\n  title: Deep\n  version: '1'\npaths: {}\nx-deep:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')} 1\n`,
        ),
      /The file is nested too deeply/,
    ],
  ])('%s', async (_label, filename, content, message) => {
    const body = content();
    const before = await counts();
    const started = performance.now();
    const answer = await importFile(owner, filename, body);
    const elapsed = performance.now() - started;
    expect(answer.body).toEqual({
      error_code: 10101,
      error_message: expect.stringMatching(message),
    });
    // Refused before any walk: no stall (the recursive walk took over a second, then a 500).
    expect(elapsed).toBeLessThan(2000);
    expect(await counts()).toEqual(before);
  });

  test('real nesting stays well inside the limit: ShowDoc catalogs 40 deep import, folded to three levels', async () => {
    const answer = await importFile(
      owner,
      'showdoc.zip',
      zip({ 'info.json': strToU8(catalogs(40)) }),
    );
    expect(answer.body.error_code).toBe(0);
    const { item_id: itemId, pages } = answer.body.data as { item_id: number; pages: number };
    expect(pages).toBe(40);
    const tree = await treeOf(itemId);
    expect(new Set(tree.map((p) => p.path))).toEqual(new Set(['/c', '/c/c', '/c/c/c']));
  });
});

test('unzip helper sanity: the exported zip is readable by a standard unzipper', () => {
  const files = unzipSync(zip({ 'a.md': strToU8('x') }));
  expect(strFromU8(files['a.md'])).toBe('x');
});
