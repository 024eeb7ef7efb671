/**
 * Serving files by sign (attachment/visitFile, common/visitFile) over real HTTP: every URL form
 * ShowDoc clients use, the headers that keep any file inert (nosniff, sandbox CSP, downloads for
 * everything but raster images), and who may read what — public and private items, the visit
 * password, the catalog restriction, share links, deleted files, pages and items.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { deletePage } from '../../models/pages';
import { UploadFile } from '../../models/files/schemas/uploadFile';
import { toggleShareLink } from '../../models/pages/shareLinks';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { BROWSER_UA } from '../helpers/client';
import { makeCatalog, makePage } from '../helpers/pages';
import { apiSuite } from '../helpers/apiSuite';
import { samples, uploadAs as uploadFileAs, type UploadArgs } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite();
let member: TestUser;
let restricted: TestUser;
let admin: TestUser;
let publicItem: number;
let privateItem: number;
let pageA: number;
let pageB: number;
let privatePage: number;

beforeAll(async () => {
  [member, restricted] = await Promise.all([makeUser(), makeUser()]);
  admin = await makeUser({ admin: true });
  ({ item_id: publicItem } = await makeItem(suite.owner));
  const catA = await makeCatalog(suite.owner, publicItem, 'A');
  const catB = await makeCatalog(suite.owner, publicItem, 'B');
  pageA = (await makePage(suite.owner, publicItem, { catId: catA })).page_id;
  pageB = (await makePage(suite.owner, publicItem, { catId: catB })).page_id;
  await addMember(publicItem, restricted, 0, [catA]);
  ({ item_id: privateItem } = await makeItem(suite.owner, { password: 'open-sesame' }));
  privatePage = (await makePage(suite.owner, privateItem)).page_id;
  await addMember(privateItem, member, 0);
});

/** Uploads as `user` and returns the stored row (test/helpers/uploads.ts uploadAs). */
const uploadAs = (user: TestUser, ...args: UploadArgs) =>
  uploadFileAs(suite.server.url, user, ...args);

/** GETs a file like a browser would (optionally with a token, cookie or visit password). */
async function visit(
  sign: string,
  options: { token?: string; cookie?: string; password?: string; path?: string } = {},
) {
  const url = new URL(options.path ?? '/server/', suite.server.url);
  if (!options.path) url.searchParams.set('s', '/api/attachment/visitFile');
  url.searchParams.set('sign', sign);
  if (options.password) url.searchParams.set('_item_pwd', options.password);
  const headers: Record<string, string> = { 'user-agent': BROWSER_UA };
  if (options.token) headers['x-api-token'] = options.token;
  if (options.cookie) headers.cookie = options.cookie;
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

function envelope(body: Buffer): { error_code: number } {
  return JSON.parse(body.toString('utf8'));
}

describe('serving', () => {
  test('a picture on a public page: anyone, inline with its real type, nosniff and a sandbox CSP', async () => {
    const bytes = samples.png();
    const file = await uploadAs(suite.owner, 'diagram.png', bytes, { page_id: pageA });
    const answer = await visit(file.sign);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(bytes);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('content-disposition')).toBe(
      `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
    );
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const row = await UploadFile.findOne({ file_id: file.file_id }).lean();
    expect(row?.visit_times).toBe(1);
    expect(row?.last_visit_time).toBeGreaterThan(0);
  });

  test('every other file is a download: PDF with its type, text and archives as octet-stream', async () => {
    const pdf = await uploadAs(suite.owner, 'spec.pdf', samples.pdf(), { page_id: pageA });
    const text = await uploadAs(
      suite.owner,
      'notes.txt',
      samples.text('hello <script>alert(1)</script>\n'),
      { page_id: pageA },
    );
    const zip = await uploadAs(suite.owner, 'bundle.zip', samples.zip(), { page_id: pageA });
    for (const [file, type] of [
      [pdf, 'application/pdf'],
      [text, 'application/octet-stream'],
      [zip, 'application/octet-stream'],
    ] as const) {
      const answer = await visit(file.sign);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test('the URL forms ShowDoc clients use all work: ?s= route, /server/api, /api/common/visitFile/sign/<sign>', async () => {
    const file = await uploadAs(suite.owner, 'forms.png', samples.png(), { page_id: pageA });
    expect((await visit(file.sign)).status).toBe(200);
    expect(
      (await visit(file.sign, { path: '/server/index.php?s=/api/attachment/visitFile' })).status,
    ).toBe(200);
    expect((await visit(file.sign, { path: '/server/api/attachment/visitFile' })).status).toBe(200);
    const byPath = await fetch(
      new URL(`/api/common/visitFile/sign/${file.sign}`, suite.server.url),
      {
        headers: { 'user-agent': BROWSER_UA },
      },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.headers.get('content-type')).toBe('image/png');
    await byPath.arrayBuffer();
  });

  test('a non-ASCII name is sent exactly (RFC 5987) with a safe ASCII fallback', async () => {
    const file = await uploadAs(suite.owner, '报告 final;v2.pdf', samples.pdf(), {
      page_id: pageA,
    });
    const answer = await visit(file.sign);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="__ final_v2.pdf"; filename*=UTF-8''${encodeURIComponent('报告 final;v2.pdf')}`,
    );
  });

  test('an unknown or malformed sign → HTTP 404 with 10602', async () => {
    for (const sign of ['0'.repeat(32), 'not-a-sign', '']) {
      const answer = await visit(sign);
      expect(answer.status).toBe(404);
      expect(envelope(answer.body).error_code).toBe(10602);
    }
  });
});

describe('who may read', () => {
  test('a private item’s file: strangers and anonymous → 403 (10302); members, the owner, admins and the visit password → served', async () => {
    const file = await uploadAs(suite.owner, 'secret.pdf', samples.pdf(), { page_id: privatePage });
    for (const options of [{}, { token: suite.stranger.user_token }, { password: 'wrong' }]) {
      const answer = await visit(file.sign, options);
      expect(answer.status).toBe(403);
      expect(envelope(answer.body).error_code).toBe(10302);
    }
    for (const options of [
      { token: member.user_token },
      { token: suite.owner.user_token },
      { token: admin.user_token },
      { password: 'open-sesame' },
      { cookie: `theme=dark; cookie_token=${member.user_token}` },
    ]) {
      expect((await visit(file.sign, options)).status).toBe(200);
    }
    const row = await UploadFile.findOne({ file_id: file.file_id }).lean();
    expect(row?.visit_times).toBe(5);
  });

  test('an item-level file follows the item’s visit rights', async () => {
    const file = await uploadAs(suite.owner, 'item.pdf', samples.pdf(), { item_id: privateItem });
    expect((await visit(file.sign)).status).toBe(403);
    expect((await visit(file.sign, { token: member.user_token })).status).toBe(200);
  });

  test('the catalog restriction: a restricted member reads files of its catalogs only', async () => {
    const inside = await uploadAs(suite.owner, 'inside.pdf', samples.pdf(), { page_id: pageA });
    const outside = await uploadAs(suite.owner, 'outside.pdf', samples.pdf(), { page_id: pageB });
    expect((await visit(inside.sign, { token: restricted.user_token })).status).toBe(200);
    expect((await visit(outside.sign, { token: restricted.user_token })).status).toBe(403);
    // Bound to a page the member may read as well: readable through that page.
    await suite.server.api
      .withToken(suite.owner.user_token)
      .ok('attachment/bindingPage', { file_id: outside.file_id, page_id: pageA });
    expect((await visit(outside.sign, { token: restricted.user_token })).status).toBe(200);
  });

  test('a page with an active share link shows its files to anyone holding the link', async () => {
    const page = await makePage(suite.owner, privateItem, { title: 'Shared' });
    const file = await uploadAs(suite.owner, 'shared.png', samples.png(), {
      page_id: page.page_id,
    });
    expect((await visit(file.sign)).status).toBe(403);
    await toggleShareLink(await actorOf(suite.owner), {
      pageId: page.page_id,
      enable: true,
      expireDays: 0,
    });
    expect((await visit(file.sign)).status).toBe(200);
    await toggleShareLink(await actorOf(suite.owner), {
      pageId: page.page_id,
      enable: false,
      expireDays: 0,
    });
    expect((await visit(file.sign)).status).toBe(403);
  });

  test('personal uploads: pictures are readable by link (editor.md embeds), other files by their uploader only', async () => {
    const picture = await uploadAs(suite.stranger, 'blob', samples.gif(), {}, 'page/uploadImg');
    expect(picture.display_name).toBe('blob.gif');
    expect((await visit(picture.sign)).status).toBe(200);
    const pdf = await uploadAs(suite.stranger, 'private-notes.pdf', samples.pdf());
    expect((await visit(pdf.sign)).status).toBe(403);
    expect((await visit(pdf.sign, { token: member.user_token })).status).toBe(403);
    expect((await visit(pdf.sign, { token: suite.stranger.user_token })).status).toBe(200);
  });

  test('a deleted attachment is no longer served, even to its uploader', async () => {
    const file = await uploadAs(suite.owner, 'deleted.png', samples.png(), { page_id: pageA });
    expect((await visit(file.sign)).status).toBe(200);
    await suite.server.api
      .withToken(suite.owner.user_token)
      .ok('attachment/deleteMyAttachment', { file_id: file.file_id });
    for (const options of [{}, { token: suite.owner.user_token }]) {
      const answer = await visit(file.sign, options);
      expect(answer.status).toBe(404);
      expect(envelope(answer.body).error_code).toBe(10602);
    }
  });

  test('a file of a page in the recycle bin is withheld from readers (its uploader keeps it)', async () => {
    const page = await makePage(suite.owner, publicItem, { title: 'Binned' });
    const file = await uploadAs(suite.owner, 'binned.png', samples.png(), {
      page_id: page.page_id,
    });
    await deletePage(await actorOf(suite.owner), page.page_id);
    expect((await visit(file.sign)).status).toBe(403);
    expect((await visit(file.sign, { token: suite.owner.user_token })).status).toBe(200);
  });
});
