/**
 * exportHtml/export over real HTTP: the offline package is a zip with an index page carrying the
 * catalog tree as links, one sanitised HTML page per published page (a script, an event handler
 * or a `javascript:` link in the Markdown comes out inert), the pictures the pages show packed
 * and linked locally, and no password or token inside. A member limited to one catalog gets only
 * that; readers, strangers and unknown items are refused with ShowDoc's 10103; one user may build
 * 100 packages a day.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { strFromU8, unzipSync } from 'fflate';
import { download, makeExportedItem } from '../helpers/exportFixture';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, makeUsers, type TestUser } from '../helpers/users';
import { Item } from '../../models/items/schemas';
import { ExportLog } from '../../models/transfer/schemas';
import { formatNow, formatUnix, nowSeconds } from '../../models/platform';

const suite = serverSuite();
let owner: TestUser, restricted: TestUser, reader: TestUser, stranger: TestUser;
let itemId: number;
let installPage: number, endpointsPage: number;
let picture: Buffer;

const exportItem = (user: TestUser | null, itemIdParam: number | string) =>
  download(suite.server, 'exportHtml/export', {
    item_id: itemIdParam,
    ...(user ? { user_token: user.user_token } : {}),
  });

function errorCode(bytes: Uint8Array): number {
  return (JSON.parse(strFromU8(bytes)) as { error_code: number }).error_code;
}

beforeAll(async () => {
  [owner, restricted, reader, stranger] = await makeUsers(4);
  ({ itemId, installPage, endpointsPage, picture } = await makeExportedItem(
    suite.server,
    { owner, restricted, reader },
    {
      item: {
        item_name: 'Offline <Docs>',
        item_description: 'Read anywhere',
        password: 'visit-secret',
      },
      installContent: [
        '## Steps',
        '',
        '<script>document.title = "pwned"</script>',
        '',
        '<img src="x.png" onerror="alert(1)">',
        '',
        '<a href="javascript:alert(2)">click</a> and <a href="https://example.com/ok">a safe link</a>',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    },
  ));
});

describe('exportHtml/export', () => {
  test('the owner gets a zip: index with the catalog tree, one page file per published page', async () => {
    const { response, bytes } = await exportItem(owner, itemId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/attachment;.*\.zip/);
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    expect(names).toEqual(
      expect.arrayContaining(['index.html', 'assets/css/common.css', 'README.txt']),
    );
    const pageFiles = names.filter((n) => n.startsWith('pages/'));
    expect(pageFiles).toHaveLength(4); // Welcome, Install, Deeper, Endpoints — not the draft

    const index = strFromU8(files['index.html']);
    expect(index).toContain('<h1>Offline &lt;Docs&gt;</h1>');
    expect(index).toContain('Read anywhere');
    for (const file of pageFiles) expect(index).toContain(`href="${file}"`);
    // Deeper sits inside Deep, inside Guide.
    expect(index).toMatch(/<summary>Guide<\/summary><ul>.*<summary>Deep<\/summary><ul>.*Deeper/);
    expect(index).not.toContain('Draft page');
  });

  test('a page is Markdown rendered to HTML with scripts, handlers and javascript: links removed', async () => {
    const files = unzipSync((await exportItem(owner, itemId)).bytes);
    const html = strFromU8(files[`pages/page-${installPage}.html`]);
    expect(html).toContain('<title>Install - Offline &lt;Docs&gt;</title>');
    expect(html).toContain('<h2>Steps</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain('<a href="https://example.com/ok">a safe link</a>');
    expect(html).toContain('<img src="x.png" />');
    expect(html).not.toContain('pwned');
    expect(html).toContain('<a>click</a>');
    expect(html).not.toMatch(/onerror|javascript:/i);
    // The only scripts are none: the package navigates with plain links.
    expect(html).not.toContain('<script');
    expect(html).toContain(`class="page current"><a href="../pages/page-${installPage}.html"`);
    expect(html).toContain('href="../assets/css/common.css"');
  });

  test('pictures of the item are packed and the page points at the copy', async () => {
    const files = unzipSync((await exportItem(owner, itemId)).bytes);
    const packed = Object.keys(files).filter((n) => n.startsWith('assets/uploads/'));
    expect(packed).toHaveLength(1);
    expect(packed[0]).toMatch(/^assets\/uploads\/[0-9a-f]{32}\/shot\.png$/);
    expect(Buffer.from(files[packed[0]]).equals(picture)).toBe(true);
    const html = strFromU8(files[`pages/page-${endpointsPage}.html`]);
    expect(html).toContain(`<img src="../${packed[0]}" alt="shot" />`);
  });

  test('no visit password, password hash or token is inside', async () => {
    const files = unzipSync((await exportItem(owner, itemId)).bytes);
    const item = await Item.findOne({ item_id: itemId }, { password: 1 }).lean();
    expect(item?.password).toBeTruthy();
    for (const [name, content] of Object.entries(files)) {
      if (name.startsWith('assets/uploads/')) continue;
      const text = strFromU8(content);
      expect(text).not.toContain('visit-secret');
      expect(text).not.toContain(item!.password);
      expect(text).not.toContain(owner.user_token);
    }
  });

  test('a member limited to one catalog gets only that catalog', async () => {
    const { response, bytes } = await exportItem(restricted, itemId);
    expect(response.status).toBe(200);
    const files = unzipSync(bytes);
    expect(Object.keys(files).filter((n) => n.startsWith('pages/'))).toEqual([
      `pages/page-${endpointsPage}.html`,
    ]);
    const index = strFromU8(files['index.html']);
    expect(index).toContain('<summary>API</summary>');
    expect(index).not.toMatch(/Guide|Welcome|Install|Deeper/);
  });

  test('read-only members, strangers and unknown items get 10103; a non-id 10101; no login gets 10102', async () => {
    for (const [user, id] of [
      [reader, itemId],
      [stranger, itemId],
      [owner, 999999],
      [owner, 0],
    ] as const) {
      const { bytes } = await exportItem(user, id);
      expect(errorCode(bytes)).toBe(10103);
    }
    // Not an id at all (ids are digits only, issue 32): a parameter error.
    expect(errorCode((await exportItem(owner, 'abc')).bytes)).toBe(10101);
    expect(errorCode((await exportItem(null, itemId)).bytes)).toBe(10102);
  });

  test('spreadsheet items have no HTML export (10101)', async () => {
    const { item_id } = await makeItem(owner, { item_type: 4 });
    expect(errorCode((await exportItem(owner, item_id)).bytes)).toBe(10101);
  });

  test('one user may build 100 packages a day; yesterday’s do not count', async () => {
    const busy = await makeUser();
    const { item_id } = await makeItem(busy);
    await makePage(busy, item_id, { title: 'Only page' });
    const yesterday = formatUnix(nowSeconds() - 86400);
    await ExportLog.insertMany([
      ...Array.from({ length: 99 }, () => ({
        uid: busy.uid,
        export_type: 'html',
        item_id,
        addtime: formatNow(),
      })),
      { uid: busy.uid, export_type: 'html', item_id, addtime: yesterday },
    ]);
    expect((await exportItem(busy, item_id)).response.headers.get('content-type')).toContain(
      'application/zip',
    );
    const refused = await exportItem(busy, item_id);
    expect(errorCode(refused.bytes)).toBe(10100);
    expect(await ExportLog.countDocuments({ uid: busy.uid })).toBe(101);
  });
});
