/**
 * The attachment manager over real HTTP (attachment/getMyList, deleteMyAttachment, getAllList,
 * deleteAttachment, bindingPage) and the clean-up of purged pages: shapes and totals as ShowDoc
 * answered them, uploader-only management, admin-only site lists, and binding rules.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { monthOf } from '../../models/files/attachments';
import { deletePage } from '../../models/pages';
import { purgeRecycleBin } from '../../models/pages/recycle';
import { FileFlow } from '../../models/files/schemas/fileFlow';
import { FilePage } from '../../models/files/schemas/filePage';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas/uploadFile';
import { nowSeconds } from '../../models/platform/time';
import { eventually } from '../helpers/embedded';
import { actorOf, addMember } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { apiSuite } from '../helpers/apiSuite';
import { samples, uploadAs as uploadFileAs, type UploadArgs } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite({ item: {} });
let restricted: TestUser;
let admin: TestUser;
let collector: TestUser;
let pageA: number;
let pageB: number;

const { as } = suite;

beforeAll(async () => {
  [restricted, collector] = await Promise.all([makeUser(), makeUser()]);
  admin = await makeUser({ admin: true });
  const catA = await makeCatalog(suite.owner, suite.itemId, 'A');
  const catB = await makeCatalog(suite.owner, suite.itemId, 'B');
  pageA = (await makePage(suite.owner, suite.itemId, { catId: catA })).page_id;
  pageB = (await makePage(suite.owner, suite.itemId, { catId: catB })).page_id;
  await addMember(suite.itemId, restricted, 1, [catA]);
});

/** Uploads as `user` and returns the stored row (test/helpers/uploads.ts uploadAs). */
const uploadAs = (user: TestUser, ...args: UploadArgs) =>
  uploadFileAs(suite.server.url, user, ...args);

interface ListAnswer {
  list: Array<Record<string, unknown>>;
  total: number;
  used: number;
  used_m: number;
  used_flow_m?: number;
}

describe('attachment/getMyList', () => {
  let image: UploadFileDoc;
  let pdf: UploadFileDoc;
  let text: UploadFileDoc;

  beforeAll(async () => {
    image = await uploadAs(collector, 'holiday (1).png', samples.png());
    pdf = await uploadAs(collector, 'contract.pdf', samples.pdf());
    text = await uploadAs(collector, 'notes.txt', samples.text());
  });

  test('anonymous → 10102', async () => {
    expect((await suite.server.api.fail('attachment/getMyList')).error_code).toBe(10102);
  });

  test('lists only the caller’s files, newest first, in ShowDoc’s shape with usage totals', async () => {
    const answer = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      page: 1,
      count: 5,
    });
    expect(answer.total).toBe(3);
    expect(answer.list.map((r) => r.file_id)).toEqual([text.file_id, pdf.file_id, image.file_id]);
    const used = image.file_size + pdf.file_size + text.file_size;
    expect(answer.used).toBe(used);
    expect(answer.used_m).toBe(Math.round((used / 1024 / 1024) * 1000) / 1000);
    expect(answer.used_flow_m).toBe(0);
    expect(answer.list[2]).toEqual({
      file_id: image.file_id,
      uid: collector.uid,
      file_type: 'image/png',
      visit_times: 0,
      file_size: image.file_size,
      item_id: 0,
      page_id: 0,
      file_size_m: expect.any(Number),
      display_name: 'holiday (1).png',
      url: `${suite.server.url}/server/?s=/api/attachment/visitFile&sign=${image.sign}`,
      addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      last_visit_time: expect.any(String),
    });
    const others = await as(suite.stranger).ok<ListAnswer>('attachment/getMyList');
    expect(others).toMatchObject({ list: [], total: 0, used: 0 });
  });

  test('pages, the type filter (1 images, 2 others) and the name filter (regex characters are literal)', async () => {
    const second = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      page: 2,
      count: 2,
    });
    expect(second.list.map((r) => r.file_id)).toEqual([image.file_id]);
    const images = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      attachment_type: 1,
    });
    expect(images.list.map((r) => r.file_id)).toEqual([image.file_id]);
    const others = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      attachment_type: 2,
    });
    expect(others.total).toBe(2);
    const named = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      display_name: '(1)',
    });
    expect(named.list.map((r) => r.file_id)).toEqual([image.file_id]);
    const dot = await as(collector).ok<ListAnswer>('attachment/getMyList', { display_name: '.*' });
    expect(dot.total).toBe(0);
    const huge = await as(collector).fail('attachment/getMyList', {
      display_name: 'x'.repeat(500),
    });
    expect(huge.error_code).toBe(10101);
    const injected = await as(collector).fail('attachment/getMyList', {
      display_name: { $ne: '' },
    });
    expect(injected.error_code).toBe(10101);
  });

  test('downloads add to visit counts and this month’s traffic (used_flow_m)', async () => {
    const response = await suite.server.request(`/api/attachment/visitFile?sign=${pdf.sign}`, {
      headers: { 'x-api-token': collector.user_token },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const answer = await as(collector).ok<ListAnswer>('attachment/getMyList', {
      attachment_type: 2,
    });
    expect(answer.list.find((r) => r.file_id === pdf.file_id)?.visit_times).toBe(1);
    const flow = await FileFlow.findOne({
      uid: collector.uid,
      date_month: monthOf(nowSeconds()),
    }).lean();
    expect(flow?.used).toBe(pdf.file_size);
    expect(answer.used_flow_m).toBe(Math.round((pdf.file_size / 1024 / 1024) * 1000) / 1000);
  });
});

describe('attachment/deleteMyAttachment', () => {
  test('anonymous → 10102; someone else’s file → 10101 and it stays', async () => {
    const file = await uploadAs(suite.editor, 'mine.pdf', samples.pdf(), { page_id: pageA });
    expect(
      (await suite.server.api.fail('attachment/deleteMyAttachment', { file_id: file.file_id }))
        .error_code,
    ).toBe(10102);
    for (const user of [suite.owner, suite.stranger]) {
      const refused = await as(user).fail('attachment/deleteMyAttachment', {
        file_id: file.file_id,
      });
      expect(refused.error_code).toBe(10101);
    }
    expect(
      (await as(suite.editor).fail('attachment/deleteMyAttachment', { file_id: 0 })).error_code,
    ).toBe(10101);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
    expect(await FilePage.countDocuments({ file_id: file.file_id })).toBe(1);
  });

  test('the uploader deletes: row, bindings and bytes are gone', async () => {
    const file = await uploadAs(suite.editor, 'gone.pdf', samples.pdf(), { page_id: pageA });
    await as(suite.editor).ok('attachment/bindingPage', { file_id: file.file_id, page_id: pageB });
    expect(
      await as(suite.editor).ok('attachment/deleteMyAttachment', { file_id: file.file_id }),
    ).toEqual([]);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeNull();
    expect(await FilePage.countDocuments({ file_id: file.file_id })).toBe(0);
    await expect(
      readFile(path.join(suite.server.dataDir, 'files', file.storage_key)),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('attachment/getAllList and deleteAttachment (site admins)', () => {
  test('non-admins → 10103, anonymous → 10102', async () => {
    expect((await suite.server.api.fail('attachment/getAllList')).error_code).toBe(10102);
    expect((await as(suite.owner).fail('attachment/getAllList')).error_code).toBe(10103);
    const file = await uploadAs(suite.owner, 'keep.pdf', samples.pdf());
    expect(
      (await as(suite.owner).fail('attachment/deleteAttachment', { file_id: file.file_id }))
        .error_code,
    ).toBe(10103);
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
  });

  test('admins list everyone’s files with usernames; filter by user, unknown user, sign; used follows filters', async () => {
    const file = await uploadAs(suite.reader, 'readers-own.txt', samples.text());
    const all = await as(admin).ok<ListAnswer>('attachment/getAllList', { count: 100 });
    expect(all.total).toBe(await UploadFile.countDocuments({}));
    expect(all.list.find((r) => r.file_id === file.file_id)).toMatchObject({
      username: suite.reader.username,
      display_name: 'readers-own.txt',
    });
    const mine = await as(admin).ok<ListAnswer>('attachment/getAllList', {
      username: suite.reader.username,
    });
    expect(mine.list.map((r) => r.file_id)).toEqual([file.file_id]);
    expect(mine.used).toBe(file.file_size);
    expect(await as(admin).ok('attachment/getAllList', { username: 'nobody-here' })).toMatchObject({
      list: [],
      total: 0,
      used: 0,
    });
    const bySign = await as(admin).ok<ListAnswer>('attachment/getAllList', {
      display_name: file.sign,
    });
    expect(bySign.list.map((r) => r.file_id)).toEqual([file.file_id]);
  });

  test('an admin deletes any file', async () => {
    const file = await uploadAs(suite.stranger, 'spam.zip', samples.zip());
    expect(
      (await as(admin).fail('attachment/deleteAttachment', { file_id: 999999 })).error_code,
    ).toBe(10101);
    expect(await as(admin).ok('attachment/deleteAttachment', { file_id: file.file_id })).toEqual(
      [],
    );
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeNull();
  });
});

describe('attachment/bindingPage', () => {
  test('anonymous → 10102; a file that is not yours → 10101; no edit right → 10103; outside the restriction → 10101', async () => {
    const own = await uploadAs(suite.reader, 'reader.pdf', samples.pdf());
    const editorsFile = await uploadAs(suite.editor, 'editor.pdf', samples.pdf());
    const restrictedFile = await uploadAs(restricted, 'restricted.pdf', samples.pdf());
    expect(
      (
        await suite.server.api.fail('attachment/bindingPage', {
          file_id: own.file_id,
          page_id: pageA,
        })
      ).error_code,
    ).toBe(10102);
    expect(
      (
        await as(suite.reader).fail('attachment/bindingPage', {
          file_id: editorsFile.file_id,
          page_id: pageA,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.reader).fail('attachment/bindingPage', {
          file_id: own.file_id,
          page_id: pageA,
        })
      ).error_code,
    ).toBe(10103);
    expect(
      (
        await as(restricted).fail('attachment/bindingPage', {
          file_id: restrictedFile.file_id,
          page_id: pageB,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.editor).fail('attachment/bindingPage', {
          file_id: editorsFile.file_id,
          page_id: 0,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      await FilePage.countDocuments({
        file_id: { $in: [own.file_id, editorsFile.file_id, restrictedFile.file_id] },
      }),
    ).toBe(0);
  });

  test('binds once (a second call changes nothing) and page/info counts it', async () => {
    const page = await makePage(suite.owner, suite.itemId, { title: 'Bind target' });
    const file = await uploadAs(suite.editor, 'bound.pdf', samples.pdf());
    expect(
      await as(suite.editor).ok('attachment/bindingPage', {
        file_id: file.file_id,
        page_id: page.page_id,
      }),
    ).toEqual([]);
    await as(suite.editor).ok('attachment/bindingPage', {
      file_id: file.file_id,
      page_id: page.page_id,
    });
    expect(await FilePage.countDocuments({ file_id: file.file_id, page_id: page.page_id })).toBe(1);
    const info = await suite.server.api.ok<{ attachment_count: number }>('page/info', {
      page_id: page.page_id,
    });
    expect(info.attachment_count).toBe(1);
    const list = await suite.server.api.ok<Array<{ file_id: number }>>('page/uploadList', {
      page_id: page.page_id,
    });
    expect(list.map((r) => r.file_id)).toEqual([file.file_id]);
  });
});

describe('purged pages', () => {
  test('the bindings of a page purged from the recycle bin are removed; the file stays its uploader’s', async () => {
    const page = await makePage(suite.owner, suite.itemId, { title: 'To purge' });
    const file = await uploadAs(suite.editor, 'orphan.pdf', samples.pdf(), {
      page_id: page.page_id,
    });
    const deletedAt = nowSeconds();
    await deletePage(await actorOf(suite.owner), page.page_id, { now: deletedAt });
    await purgeRecycleBin(deletedAt + 31 * 86_400, { itemId: suite.itemId });
    await eventually(async () => {
      expect(await FilePage.countDocuments({ page_id: page.page_id })).toBe(0);
    });
    expect(await UploadFile.exists({ file_id: file.file_id })).toBeTruthy();
    const mine = await as(suite.editor).ok<ListAnswer>('attachment/getMyList', {
      display_name: 'orphan',
    });
    expect(mine.list.map((r) => r.file_id)).toEqual([file.file_id]);
  });
});
