/**
 * Serving files by sign (attachment/visitFile, common/visitFile) over real HTTP: every URL form
 * ShowDoc clients use, the headers that keep any file inert (nosniff, sandbox CSP, downloads for
 * everything but raster images), and who may read what — public and private items, the visit
 * password, the catalog restriction, share links, deleted files, pages and items.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { deletePage } from '../../models/pages/pages';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas/uploadFile';
import { toggleShareLink } from '../../models/pages/shareLinks';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { BROWSER_UA } from '../helpers/client';
import { makeCatalog, makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { postMultipart, samples, signOf } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let restricted: TestUser;
let admin: TestUser;
let publicItem: number;
let privateItem: number;
let pageA: number;
let pageB: number;
let privatePage: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, member, stranger, restricted] = await Promise.all(
    Array.from({ length: 4 }, () => makeUser()),
  );
  admin = await makeUser({ admin: true });
  ({ item_id: publicItem } = await makeItem(owner));
  const catA = await makeCatalog(owner, publicItem, 'A');
  const catB = await makeCatalog(owner, publicItem, 'B');
  pageA = (await makePage(owner, publicItem, { catId: catA })).page_id;
  pageB = (await makePage(owner, publicItem, { catId: catB })).page_id;
  await addMember(publicItem, restricted, 0, [catA]);
  ({ item_id: privateItem } = await makeItem(owner, { password: 'open-sesame' }));
  privatePage = (await makePage(owner, privateItem)).page_id;
  await addMember(privateItem, member, 0);
});
afterAll(async () => {
  await server.stop();
});

async function uploadAs(
  user: TestUser,
  filename: string,
  content: Buffer,
  fields: Record<string, number> = {},
  route = 'page/upload',
): Promise<UploadFileDoc> {
  const answer = await postMultipart(server.url, route, [
    { name: 'user_token', value: user.user_token },
    ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
    { name: route === 'page/upload' ? 'file' : 'editormd-image-file', filename, content },
  ]);
  if (answer.body.success !== 1) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  const row = await UploadFile.findOne({ sign: signOf(answer.body.url) }).lean<UploadFileDoc>();
  if (!row) throw new Error('no row');
  return row;
}

/** GETs a file like a browser would (optionally with a token, cookie or visit password). */
async function visit(
  sign: string,
  options: { token?: string; cookie?: string; password?: string; path?: string } = {},
) {
  const url = new URL(options.path ?? '/server/', server.url);
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
    const file = await uploadAs(owner, 'diagram.png', bytes, { page_id: pageA });
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
    const pdf = await uploadAs(owner, 'spec.pdf', samples.pdf(), { page_id: pageA });
    const text = await uploadAs(
      owner,
      'notes.txt',
      samples.text('hello <script>alert(1)</script>\n'),
      { page_id: pageA },
    );
    const zip = await uploadAs(owner, 'bundle.zip', samples.zip(), { page_id: pageA });
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
    const file = await uploadAs(owner, 'forms.png', samples.png(), { page_id: pageA });
    expect((await visit(file.sign)).status).toBe(200);
    expect(
      (await visit(file.sign, { path: '/server/index.php?s=/api/attachment/visitFile' })).status,
    ).toBe(200);
    expect((await visit(file.sign, { path: '/server/api/attachment/visitFile' })).status).toBe(200);
    const byPath = await fetch(new URL(`/api/common/visitFile/sign/${file.sign}`, server.url), {
      headers: { 'user-agent': BROWSER_UA },
    });
    expect(byPath.status).toBe(200);
    expect(byPath.headers.get('content-type')).toBe('image/png');
    await byPath.arrayBuffer();
  });

  test('a non-ASCII name is sent exactly (RFC 5987) with a safe ASCII fallback', async () => {
    const file = await uploadAs(owner, '报告 final;v2.pdf', samples.pdf(), { page_id: pageA });
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
    const file = await uploadAs(owner, 'secret.pdf', samples.pdf(), { page_id: privatePage });
    for (const options of [{}, { token: stranger.user_token }, { password: 'wrong' }]) {
      const answer = await visit(file.sign, options);
      expect(answer.status).toBe(403);
      expect(envelope(answer.body).error_code).toBe(10302);
    }
    for (const options of [
      { token: member.user_token },
      { token: owner.user_token },
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
    const file = await uploadAs(owner, 'item.pdf', samples.pdf(), { item_id: privateItem });
    expect((await visit(file.sign)).status).toBe(403);
    expect((await visit(file.sign, { token: member.user_token })).status).toBe(200);
  });

  test('the catalog restriction: a restricted member reads files of its catalogs only', async () => {
    const inside = await uploadAs(owner, 'inside.pdf', samples.pdf(), { page_id: pageA });
    const outside = await uploadAs(owner, 'outside.pdf', samples.pdf(), { page_id: pageB });
    expect((await visit(inside.sign, { token: restricted.user_token })).status).toBe(200);
    expect((await visit(outside.sign, { token: restricted.user_token })).status).toBe(403);
    // Bound to a page the member may read as well: readable through that page.
    await server.api
      .withToken(owner.user_token)
      .ok('attachment/bindingPage', { file_id: outside.file_id, page_id: pageA });
    expect((await visit(outside.sign, { token: restricted.user_token })).status).toBe(200);
  });

  test('a page with an active share link shows its files to anyone holding the link', async () => {
    const page = await makePage(owner, privateItem, { title: 'Shared' });
    const file = await uploadAs(owner, 'shared.png', samples.png(), { page_id: page.page_id });
    expect((await visit(file.sign)).status).toBe(403);
    await toggleShareLink(await actorOf(owner), {
      pageId: page.page_id,
      enable: true,
      expireDays: 0,
    });
    expect((await visit(file.sign)).status).toBe(200);
    await toggleShareLink(await actorOf(owner), {
      pageId: page.page_id,
      enable: false,
      expireDays: 0,
    });
    expect((await visit(file.sign)).status).toBe(403);
  });

  test('personal uploads: pictures are readable by link (editor.md embeds), other files by their uploader only', async () => {
    const picture = await uploadAs(stranger, 'blob', samples.gif(), {}, 'page/uploadImg');
    expect(picture.display_name).toBe('blob.gif');
    expect((await visit(picture.sign)).status).toBe(200);
    const pdf = await uploadAs(stranger, 'private-notes.pdf', samples.pdf());
    expect((await visit(pdf.sign)).status).toBe(403);
    expect((await visit(pdf.sign, { token: member.user_token })).status).toBe(403);
    expect((await visit(pdf.sign, { token: stranger.user_token })).status).toBe(200);
  });

  test('a deleted attachment is no longer served, even to its uploader', async () => {
    const file = await uploadAs(owner, 'deleted.png', samples.png(), { page_id: pageA });
    expect((await visit(file.sign)).status).toBe(200);
    await server.api
      .withToken(owner.user_token)
      .ok('attachment/deleteMyAttachment', { file_id: file.file_id });
    for (const options of [{}, { token: owner.user_token }]) {
      const answer = await visit(file.sign, options);
      expect(answer.status).toBe(404);
      expect(envelope(answer.body).error_code).toBe(10602);
    }
  });

  test('a file of a page in the recycle bin is withheld from readers (its uploader keeps it)', async () => {
    const page = await makePage(owner, publicItem, { title: 'Binned' });
    const file = await uploadAs(owner, 'binned.png', samples.png(), { page_id: page.page_id });
    await deletePage(await actorOf(owner), page.page_id);
    expect((await visit(file.sign)).status).toBe(403);
    expect((await visit(file.sign, { token: owner.user_token })).status).toBe(200);
  });
});
