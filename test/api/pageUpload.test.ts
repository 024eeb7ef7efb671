/**
 * The page attachment actions over real HTTP (page/upload, page/uploadImg, page/uploadList,
 * page/deleteUploadFile): who may upload where, the ShowDoc answer shapes, and the upload
 * defences — content checked against the extension, hostile names, size limit enforced while
 * streaming, and nothing written (no row, no file) for any refused upload.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { FilePage } from '../../models/files/schemas/filePage';
import { Item } from '../../models/items/schemas/item';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas/uploadFile';
import { deleteSetting, setSetting } from '../../models/settings/settings';
import { detectKind } from '../../models/files/fileTypes';
import { sanitizeDisplayName } from '../../models/files/uploads';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { apiSuite } from '../helpers/apiSuite';
import { filesUnder, postMultipart, samples, signOf, type Part } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';
import { BROWSER_UA } from '../helpers/client';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite({ item: {} });
let restricted: TestUser;
let privateItemId: number;
let pageA: number;
let pageB: number;
let pageRoot: number;
let privatePage: number;

const filesDir = () => path.join(suite.server.dataDir, 'files');
const { as } = suite;

beforeAll(async () => {
  restricted = await makeUser();
  const catA = await makeCatalog(suite.owner, suite.itemId, 'A');
  const catB = await makeCatalog(suite.owner, suite.itemId, 'B');
  pageA = (await makePage(suite.owner, suite.itemId, { catId: catA })).page_id;
  pageB = (await makePage(suite.owner, suite.itemId, { catId: catB })).page_id;
  pageRoot = (await makePage(suite.owner, suite.itemId)).page_id;
  await addMember(suite.itemId, restricted, 1, [catA]);
  ({ item_id: privateItemId } = await makeItem(suite.owner, { password: 'secret-pw' }));
  privatePage = (await makePage(suite.owner, privateItemId)).page_id;
});
interface Snapshot {
  rows: number;
  bindings: number;
  files: string[];
}

async function snapshot(): Promise<Snapshot> {
  return {
    rows: await UploadFile.countDocuments({}),
    bindings: await FilePage.countDocuments({}),
    files: await filesUnder(filesDir()),
  };
}

/** Runs a refused upload and proves it left no row, no binding and no file (staging included). */
async function expectNothingWritten(run: () => Promise<unknown>): Promise<void> {
  const before = await snapshot();
  await run();
  expect(await snapshot()).toEqual(before);
}

function fileParts(
  user: TestUser | null,
  filename: string,
  content: Buffer,
  fields: Record<string, string | number> = {},
  fileField = 'file',
): Part[] {
  return [
    ...(user ? [{ name: 'user_token', value: user.user_token }] : []),
    ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
    { name: fileField, filename, content },
  ];
}

const upload = (parts: Part[], query?: Record<string, string>) =>
  postMultipart(suite.server.url, 'page/upload', parts, { query });
const uploadImg = (parts: Part[], query?: Record<string, string>) =>
  postMultipart(suite.server.url, 'page/uploadImg', parts, { query });

async function rowBySign(url: unknown): Promise<UploadFileDoc> {
  const row = await UploadFile.findOne({ sign: signOf(url) }).lean<UploadFileDoc>();
  if (!row) throw new Error('no upload_file row');
  return row;
}

describe('page/upload', () => {
  test('without a login → 10102, with no token or a wrong one, and nothing is written', async () => {
    await expectNothingWritten(async () => {
      const anonymous = await upload(fileParts(null, 'a.pdf', samples.pdf(), { page_id: pageA }));
      expect(anonymous.body).toMatchObject({ error_code: 10102 });
      const wrong = await upload(fileParts(null, 'a.pdf', samples.pdf(), { page_id: pageA }), {
        user_token: 'f'.repeat(128),
      });
      expect(wrong.body).toMatchObject({ error_code: 10102 });
      const form = await suite.server.api.call('page/upload', { page_id: pageA });
      expect(form.body).toMatchObject({ error_code: 10102 });
    });
  });

  test('a token sent after the file still decides: valid → stored, invalid → 10102 and staging emptied', async () => {
    const late: Part[] = [
      { name: 'page_id', value: String(pageA) },
      { name: 'file', filename: 'late.pdf', content: samples.pdf() },
      { name: 'user_token', value: suite.editor.user_token },
    ];
    const ok = await upload(late);
    expect(ok.body).toEqual({ url: expect.any(String), success: 1 });
    await expectNothingWritten(async () => {
      const refused = await upload([
        { name: 'file', filename: 'late.pdf', content: samples.pdf() },
        { name: 'user_token', value: 'nope' },
      ]);
      expect(refused.body).toMatchObject({ error_code: 10102 });
    });
  });

  test('bad input → 10101: no file, a page of another item, a page that does not exist', async () => {
    await expectNothingWritten(async () => {
      const noFile = await upload([
        { name: 'user_token', value: suite.editor.user_token },
        { name: 'page_id', value: String(pageA) },
      ]);
      expect(noFile.body).toMatchObject({ error_code: 10101 });
      const mismatch = await upload(
        fileParts(suite.owner, 'a.pdf', samples.pdf(), { page_id: pageA, item_id: privateItemId }),
      );
      expect(mismatch.body).toMatchObject({ error_code: 10101 });
      const missing = await upload(
        fileParts(suite.editor, 'a.pdf', samples.pdf(), { page_id: 987654 }),
      );
      expect(missing.body).toMatchObject({ error_code: 10101 });
      const form = await suite.server.api
        .withToken(suite.editor.user_token)
        .call('page/upload', { page_id: pageA });
      expect(form.body).toMatchObject({ error_code: 10101 });
    });
  });

  test('read-only members and strangers → 10103; a restricted member outside its catalog → 10101', async () => {
    await expectNothingWritten(async () => {
      for (const user of [suite.reader, suite.stranger]) {
        const byPage = await upload(fileParts(user, 'a.pdf', samples.pdf(), { page_id: pageA }));
        expect(byPage.body).toMatchObject({ error_code: 10103 });
        const byItem = await upload(
          fileParts(user, 'a.pdf', samples.pdf(), { item_id: suite.itemId }),
        );
        expect(byItem.body).toMatchObject({ error_code: 10103 });
      }
      const outside = await upload(
        fileParts(restricted, 'a.pdf', samples.pdf(), { page_id: pageB }),
      );
      expect(outside.body).toMatchObject({ error_code: 10101 });
    });
  });

  test('an archived item is read-only: uploads to it → 10103', async () => {
    const { item_id: archived } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, archived);
    await Item.updateOne({ item_id: archived }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    await expectNothingWritten(async () => {
      const byPage = await upload(
        fileParts(suite.owner, 'a.pdf', samples.pdf(), { page_id: page.page_id }),
      );
      expect(byPage.body).toMatchObject({ error_code: 10103 });
      const byItem = await upload(
        fileParts(suite.owner, 'a.pdf', samples.pdf(), { item_id: archived }),
      );
      expect(byItem.body).toMatchObject({ error_code: 10103 });
    });
  });

  test('an editor uploads to a page: ShowDoc shape, server-made storage name, binding, page count', async () => {
    const bytes = samples.pdf();
    const answer = await upload(
      fileParts(suite.editor, 'Quarterly report.pdf', bytes, {
        page_id: pageA,
        item_id: suite.itemId,
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ url: expect.any(String), success: 1 });
    expect(String(answer.body.url)).toMatch(
      new RegExp(`^${suite.server.url}/server/\\?s=/api/attachment/visitFile&sign=[0-9a-f]{32}$`),
    );
    const row = await rowBySign(answer.body.url);
    expect(row).toMatchObject({
      display_name: 'Quarterly report.pdf',
      file_type: 'application/pdf',
      file_size: bytes.length,
      uid: suite.editor.uid,
      item_id: suite.itemId,
      page_id: pageA,
      visit_times: 0,
    });
    expect(row.storage_key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{32}$/);
    expect(await readFile(path.join(filesDir(), row.storage_key))).toEqual(bytes);
    expect(await FilePage.countDocuments({ file_id: row.file_id, page_id: pageA })).toBe(1);
    const info = await as(suite.reader).ok<Record<string, unknown>>('page/info', {
      page_id: pageA,
    });
    expect(info.attachment_count).toBe(await FilePage.countDocuments({ page_id: pageA }));
    expect(info.attachment_count).toBeGreaterThan(0);
  });

  test('an item-level upload (item_id only) belongs to the item and no page', async () => {
    const answer = await upload(
      fileParts(suite.editor, 'data.csv', samples.text('a,b\n1,2\n'), { item_id: suite.itemId }),
    );
    expect(answer.body.success).toBe(1);
    const row = await rowBySign(answer.body.url);
    expect(row).toMatchObject({ item_id: suite.itemId, page_id: 0, file_type: 'text/plain' });
    expect(await FilePage.countDocuments({ file_id: row.file_id })).toBe(0);
  });

  test('HTML or a PHP script disguised as an image is refused (10604) and nothing is written', async () => {
    await expectNothingWritten(async () => {
      for (const [name, content] of [
        ['photo.png', samples.html()],
        ['photo.jpg', samples.php()],
        ['notes.txt', samples.html()],
        ['photo.png', samples.pdf()],
      ] as const) {
        const answer = await upload(fileParts(suite.editor, name, content, { page_id: pageA }));
        expect(answer.body).toMatchObject({ error_code: 10604 });
      }
    });
  });

  test('an SVG (with script) is refused whatever it is called', async () => {
    await expectNothingWritten(async () => {
      for (const name of ['drawing.svg', 'drawing.png', 'drawing.svg.png']) {
        const answer = await upload(
          fileParts(suite.editor, name, samples.svg(), { page_id: pageA }),
        );
        expect(answer.body).toMatchObject({ error_code: 10604 });
      }
    });
  });

  test('double extensions, unlisted extensions and names without one are refused', async () => {
    await expectNothingWritten(async () => {
      for (const name of ['shell.php.png', 'page.html.pdf', 'tool.exe', 'README', 'x.js']) {
        const answer = await upload(
          fileParts(suite.editor, name, samples.png(), { page_id: pageA }),
        );
        expect(answer.body).toMatchObject({ error_code: 10604 });
      }
    });
  });

  test('a path or control characters in the name never reach the disk; the name is kept clean', async () => {
    const cases: Array<[string, string]> = [
      ['../../../../tmp/evil.png', 'evil.png'],
      ['C:\\Users\\me\\Desktop\\shot.png', 'shot.png'],
      ['a\u0007b\u202e\u0001c\u200b.png', 'abc.png'],
      ['..png', 'png'],
    ];
    for (const [sent, kept] of cases) {
      // Percent-encoded (RFC 5987), the only way a client can put control characters in a name.
      const answer = await upload([
        { name: 'user_token', value: suite.editor.user_token },
        { name: 'page_id', value: String(pageA) },
        { name: 'file', filename: sent, content: samples.png(), encoded: true },
      ]);
      if (kept === 'png') {
        // Only a leading dot was left of the name: it has no extension any more.
        expect(answer.body).toMatchObject({ error_code: 10604 });
        continue;
      }
      expect([sent, answer.body]).toEqual([sent, { url: expect.any(String), success: 1 }]);
      const row = await rowBySign(answer.body.url);
      expect(row.display_name).toBe(kept);
      expect(row.storage_key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{32}$/);
    }
    for (const file of await filesUnder(filesDir()))
      expect(file).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{32}$/);
  });

  test('display names are sanitised and capped (unit)', () => {
    expect(sanitizeDisplayName('dir/sub\\file.txt')).toBe('file.txt');
    expect(sanitizeDisplayName(' \u0000x\u200e.pdf. ')).toBe('x.pdf');
    const long = sanitizeDisplayName(`${'n'.repeat(500)}.pdf`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(detectKind(samples.html())).toBeNull();
    expect(detectKind(samples.svg())).toBeNull();
    expect(detectKind(samples.png())).toBe('png');
  });

  describe('with upload_max_mb = 1', () => {
    beforeEach(async () => {
      await setSetting('upload_max_mb', '1');
    });
    afterAll(async () => {
      await deleteSetting('upload_max_mb');
    });

    test('a file over the limit is cut off while streaming (10603) and its partial file deleted', async () => {
      const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024, 0x41)]);
      await expectNothingWritten(async () => {
        const answer = await upload(fileParts(suite.editor, 'big.pdf', big, { page_id: pageA }));
        expect(answer.body).toMatchObject({ error_code: 10603 });
        const image = await uploadImg(
          fileParts(suite.editor, 'big.png', Buffer.concat([samples.png(), big])),
        );
        expect(image.body).toMatchObject({
          success: 0,
          message: expect.stringMatching(/too large/),
        });
      });
      const fits = await upload(
        fileParts(suite.editor, 'fits.pdf', big.subarray(0, 1024 * 1024), { page_id: pageA }),
      );
      expect(fits.body).toEqual({ url: expect.any(String), success: 1 });
    });

    test('a declared body far over the limit is refused before it is read', async () => {
      await expectNothingWritten(async () => {
        const request = http.request(`${suite.server.url}/api/page/upload`, {
          method: 'POST',
          headers: {
            'content-type': 'multipart/form-data; boundary=xyz',
            'content-length': String(50 * 1024 * 1024),
            'user-agent': BROWSER_UA,
            'x-api-token': suite.editor.user_token,
          },
        });
        request.on('error', () => {}); // the server closes the connection after answering
        request.write('--xyz\r\n');
        const [response] = (await once(request, 'response')) as [http.IncomingMessage];
        let text = '';
        for await (const chunk of response) text += chunk;
        request.destroy();
        expect(JSON.parse(text)).toMatchObject({ error_code: 10603 });
      });
    });
  });

  test('an empty file is refused (10101)', async () => {
    await expectNothingWritten(async () => {
      const answer = await upload(
        fileParts(suite.editor, 'empty.pdf', Buffer.alloc(0), { page_id: pageA }),
      );
      expect(answer.body).toMatchObject({ error_code: 10101 });
    });
  });
});

describe('page/uploadImg', () => {
  test('without a login → the 10102 envelope, nothing written', async () => {
    await expectNothingWritten(async () => {
      const answer = await uploadImg(
        fileParts(null, 'a.png', samples.png(), {}, 'editormd-image-file'),
      );
      expect(answer.body).toMatchObject({ error_code: 10102 });
    });
  });

  test("editor.md's form (token in the query, a pasted `blob`) → {url, success: 1}, named after the content", async () => {
    const answer = await uploadImg(
      [{ name: 'editormd-image-file', filename: 'blob', content: samples.png() }],
      { user_token: suite.stranger.user_token },
    );
    expect(answer.body).toEqual({ url: expect.any(String), success: 1 });
    const row = await rowBySign(answer.body.url);
    expect(row).toMatchObject({
      display_name: 'blob.png',
      file_type: 'image/png',
      item_id: 0,
      page_id: 0,
      uid: suite.stranger.uid,
    });
  });

  test('a picture for a page is bound to it; a JPEG named .png keeps its real type', async () => {
    const answer = await uploadImg(
      fileParts(
        suite.editor,
        'screen.png',
        samples.jpeg(),
        { page_id: pageRoot, item_id: suite.itemId },
        'editormd-image-file',
      ),
    );
    expect(answer.body.success).toBe(1);
    const row = await rowBySign(answer.body.url);
    expect(row).toMatchObject({
      file_type: 'image/jpeg',
      page_id: pageRoot,
      item_id: suite.itemId,
    });
    expect(await FilePage.countDocuments({ file_id: row.file_id, page_id: pageRoot })).toBe(1);
  });

  test('refusals answer {message, success: 0} without an envelope and write nothing', async () => {
    await expectNothingWritten(async () => {
      for (const [user, name, content, fields] of [
        [suite.editor, 'x.png', samples.html(), {}],
        [suite.editor, 'x.svg', samples.svg(), {}],
        [suite.editor, 'doc.pdf', samples.pdf(), {}],
        [suite.stranger, 'x.png', samples.png(), { page_id: pageA }],
        [suite.reader, 'x.png', samples.png(), { item_id: suite.itemId }],
      ] as const) {
        const answer = await uploadImg(
          fileParts(user, name, content, fields, 'editormd-image-file'),
        );
        expect(answer.body).toEqual({ message: expect.any(String), success: 0 });
      }
    });
  });
});

describe('page/uploadList', () => {
  let listed: UploadFileDoc;

  beforeAll(async () => {
    const answer = await upload(
      fileParts(suite.owner, 'private.pdf', samples.pdf(), { page_id: privatePage }),
    );
    listed = await rowBySign(answer.body.url);
  });

  test('page_id ≤ 0 → 10103 (save the page first)', async () => {
    expect((await as(suite.editor).fail('page/uploadList', { page_id: 0 })).error_code).toBe(10103);
  });

  test('readers get the files newest first in ShowDoc shape; anonymous readers of a public item too', async () => {
    const page = await makePage(suite.owner, suite.itemId, { title: 'Two files' });
    const first = await upload(
      fileParts(suite.owner, 'one.txt', samples.text(), { page_id: page.page_id }),
    );
    const second = await upload(
      fileParts(suite.owner, 'two.zip', samples.zip(), { page_id: page.page_id }),
    );
    const rows = await suite.server.api.ok<Array<Record<string, unknown>>>('page/uploadList', {
      page_id: page.page_id,
    });
    expect(rows.map((r) => r.display_name)).toEqual(['two.zip', 'one.txt']);
    expect(rows[0].url).toBe(second.body.url);
    const firstRow = await rowBySign(first.body.url);
    expect(rows.find((r) => r.display_name === 'one.txt')).toEqual({
      file_id: firstRow.file_id,
      display_name: 'one.txt',
      url: first.body.url,
      addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      file_type: 'text/plain',
    });
  });

  test('a private item: strangers and anonymous → 10101; members and the visit password → the list', async () => {
    expect(
      (await suite.server.api.fail('page/uploadList', { page_id: privatePage })).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.stranger).fail('page/uploadList', { page_id: privatePage })).error_code,
    ).toBe(10101);
    const withPassword = await suite.server.api.ok<Array<{ file_id: number }>>('page/uploadList', {
      page_id: privatePage,
      _item_pwd: 'secret-pw',
    });
    expect(withPassword.map((r) => r.file_id)).toEqual([listed.file_id]);
  });

  test('a restricted member cannot list a page outside its catalogs (10101)', async () => {
    expect((await as(restricted).fail('page/uploadList', { page_id: pageB })).error_code).toBe(
      10101,
    );
    await as(restricted).ok('page/uploadList', { page_id: pageA });
  });
});

describe('page/deleteUploadFile', () => {
  async function uploaded(by: TestUser, pageId: number): Promise<UploadFileDoc> {
    const answer = await upload(fileParts(by, 'del.pdf', samples.pdf(), { page_id: pageId }));
    return rowBySign(answer.body.url);
  }

  test('anonymous → 10102; missing ids → 10101', async () => {
    const file = await uploaded(suite.editor, pageA);
    expect(
      (
        await suite.server.api.fail('page/deleteUploadFile', {
          file_id: file.file_id,
          page_id: pageA,
        })
      ).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('page/deleteUploadFile', { file_id: 0, page_id: pageA }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('page/deleteUploadFile', { file_id: file.file_id, page_id: 0 }))
        .error_code,
    ).toBe(10101);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
  });

  test('a file on one page: only its uploader deletes it, and then row, binding and bytes are gone', async () => {
    const file = await uploaded(suite.editor, pageA);
    const stored = path.join(filesDir(), file.storage_key);
    expect(
      (
        await as(suite.owner).fail('page/deleteUploadFile', {
          file_id: file.file_id,
          page_id: pageA,
        })
      ).error_code,
    ).toBe(10101);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
    expect(
      await as(suite.editor).ok('page/deleteUploadFile', { file_id: file.file_id, page_id: pageA }),
    ).toEqual([]);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeNull();
    expect(await FilePage.countDocuments({ file_id: file.file_id })).toBe(0);
    await expect(readFile(stored)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a file on several pages: an editor of the page unbinds that page only; a reader → 10103', async () => {
    const file = await uploaded(suite.editor, pageA);
    await as(suite.editor).ok('attachment/bindingPage', {
      file_id: file.file_id,
      page_id: pageRoot,
    });
    expect(
      (
        await as(suite.reader).fail('page/deleteUploadFile', {
          file_id: file.file_id,
          page_id: pageRoot,
        })
      ).error_code,
    ).toBe(10103);
    await as(suite.owner).ok('page/deleteUploadFile', { file_id: file.file_id, page_id: pageRoot });
    const pages = await FilePage.find({ file_id: file.file_id }).lean();
    expect(pages.map((p) => p.page_id)).toEqual([pageA]);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
  });
});
