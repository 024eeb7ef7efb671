/**
 * export/pdf over real HTTP, printed by the real Chromium and read back with a PDF reader
 * (pdf-parse, i.e. PDF.js): a cover, a table of contents and one sheet per page in menu order,
 * CJK text as written, the uploaded picture embedded as an image, highlighted code; one catalog or
 * one page can be chosen; every ShowDoc URL form and POST; refusals answer export/word's envelopes
 * (no token, a read-only member, a member limited to another catalog, a stranger, bad ids); a
 * server without Chromium answers a clear error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { imageSize } from 'image-size';
import { createApp } from '../../api/app';
import { createLogger } from '../../models/platform';
import { download as downloadApi, makeExportedItem } from '../helpers/exportFixture';
import { serverSuite } from '../helpers/apiSuite';
import { readPdf } from '../helpers/pdfReader';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
let owner: TestUser, restricted: TestUser, reader: TestUser, stranger: TestUser;
let itemId: number, guide: number, installPage: number, picture: Buffer;

const CJK_TEXT = '安装步骤：先下载，再运行。日本語のテキストも表示されます。';
const INSTALL = `[TOC]

## 安装

${CJK_TEXT}

| 名称 | 值 |
|---|---|
| port | 4999 |

\`\`\`js
const answer = 42;
\`\`\``;

const download = (route: string, params: Record<string, string | number>) =>
  downloadApi(suite.server, route, params);

const ownerPdf = async (params: Record<string, number> = {}) => {
  const { response, bytes } = await download('export/pdf', {
    item_id: itemId,
    user_token: owner.user_token,
    ...params,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return { response, bytes, pdf: await readPdf(bytes) };
};

const envelope = (bytes: Uint8Array) =>
  JSON.parse(Buffer.from(bytes).toString('utf8')) as { error_code: number; error_message: string };

beforeAll(async () => {
  [owner, restricted, reader, stranger] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  ({ itemId, guide, installPage, picture } = await makeExportedItem(
    suite.server,
    { owner, restricted, reader },
    {
      item: { item_name: 'Printed 手册', password: 'visit-secret' },
      installContent: INSTALL,
    },
  ));
}, 120_000);

describe('export/pdf', () => {
  test('the whole item: cover, contents, one sheet per page with CJK text, table, code and the picture', async () => {
    const { response, bytes, pdf } = await ownerPdf();
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(response.headers.get('content-disposition')).toContain('.pdf');
    // Cover + contents + Welcome, Install, Deeper (Guide › Deep), Endpoints (API); no draft.
    expect(pdf.pages).toHaveLength(6);
    expect(pdf.pages[0]).toContain('Printed 手册');
    for (const title of ['Welcome', 'Guide', 'Install', 'Deep', 'Deeper', 'API', 'Endpoints'])
      expect(pdf.pages[1]).toContain(title);
    const [welcome, install, deeper, endpoints] = pdf.pages.slice(2);
    expect(welcome).toContain('Welcome');
    expect(welcome).toContain('Root bold text.');
    expect(install).toContain('Install');
    expect(install.replace(/\s+/g, '')).toContain(CJK_TEXT.normalize('NFKC'));
    expect(install).toMatch(/名称\s+值/);
    expect(install).toContain('const answer = 42;');
    expect(install).not.toContain('[TOC]');
    expect(deeper).toContain('Guide › Deep');
    expect(deeper).toContain('deep text');
    expect(endpoints).toContain('Endpoints');
    expect(pdf.pages.join('\n')).not.toContain('secret draft');
    // The uploaded picture itself (its pixel size) is embedded on the Endpoints sheet, and only
    // there.
    const { width, height } = imageSize(picture);
    expect(pdf.images[5]).toEqual([[width, height]]);
    expect(pdf.images.slice(0, 5)).toEqual([[], [], [], [], []]);
  });

  test('one catalog (with its sub-catalogs) and one page', async () => {
    const catalog = await ownerPdf({ cat_id: guide });
    // Cover + contents + Install + Deeper.
    expect(catalog.pdf.pages).toHaveLength(4);
    expect(catalog.pdf.pages[0]).toContain('Guide');
    expect(catalog.pdf.pages.join('\n')).not.toContain('Root bold text.');

    const page = await ownerPdf({ cat_id: guide, page_id: installPage });
    // One page: the cover and the page, no contents.
    expect(page.pdf.pages).toHaveLength(2);
    expect(page.pdf.pages[1].replace(/\s+/g, '')).toContain(CJK_TEXT.normalize('NFKC'));
  });

  test('every ShowDoc URL form and POST print the same document', async () => {
    const form = new URLSearchParams({
      item_id: String(itemId),
      page_id: String(installPage),
      user_token: owner.user_token,
    });
    for (const [path, init] of [
      [`/server/index.php?s=/api/export/pdf&${form.toString()}`, undefined],
      ['/api/export/pdf', { method: 'POST', body: form }],
    ] as const) {
      const response = await suite.server.request(path, init);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
      expect(pdf.pages).toHaveLength(2);
    }
  });

  test('a member limited to one catalog gets only that catalog', async () => {
    const { bytes } = await download('export/pdf', {
      item_id: itemId,
      user_token: restricted.user_token,
    });
    const pdf = await readPdf(bytes);
    // Cover + the API catalog's one page: no contents, nothing of the other catalogs.
    expect(pdf.pages).toHaveLength(2);
    expect(pdf.pages[1]).toContain('Endpoints');
    expect(pdf.pages.join('\n')).not.toMatch(/Welcome|Install|Deeper/);
  });

  test('refusals and bad ids answer export/word’s envelopes', async () => {
    const cases: [string, Record<string, string | number>, number][] = [
      ['no token', { item_id: itemId }, 10102],
      ['a read-only member', { item_id: itemId, user_token: reader.user_token }, 10302],
      [
        'a member limited to another catalog',
        { item_id: itemId, cat_id: guide, user_token: restricted.user_token },
        10302,
      ],
      ['a stranger', { item_id: itemId, user_token: stranger.user_token }, 0],
      ['an unknown item', { item_id: 987654, user_token: owner.user_token }, 0],
      ['no item', { user_token: owner.user_token }, 0],
      ['an unknown page', { item_id: itemId, page_id: 987654, user_token: owner.user_token }, 0],
    ];
    for (const [name, params, code] of cases) {
      const pdf = await download('export/pdf', params);
      const word = await download('export/word', params);
      expect(pdf.response.headers.get('content-type')).toContain('application/json');
      const answer = envelope(pdf.bytes);
      expect({ name, answer }).toEqual({ name, answer: envelope(word.bytes) });
      expect(answer.error_code).toBeGreaterThan(0);
      if (code) expect({ name, code: answer.error_code }).toEqual({ name, code });
    }
  });
});

describe('export/pdf without Chromium', () => {
  test('answers an error envelope saying PDF export is unavailable', async () => {
    // This process's Quire (its data and context) served by an app set up with no Chromium.
    const app = createApp({
      config: {
        bodyLimitBytes: 1024 * 1024,
        trustProxy: false,
        pdfChromiumPath: '/nonexistent/chromium',
      },
      logger: createLogger({ level: 'silent' }),
      state: suite.server.quire.state,
      webDistDir: path.join(__dirname, 'no-such-dist'),
    });
    const server = http.createServer(app);
    await suite.server.quire.run(
      () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    );
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(
        `http://127.0.0.1:${port}/api/export/pdf?item_id=${itemId}&user_token=${owner.user_token}`,
      );
      const body = (await response.json()) as { error_code: number; error_message: string };
      expect(body.error_code).toBe(10101);
      expect(body.error_message).toMatch(/PDF export is not available.*Chromium/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
