/**
 * attachment/getUnusedList and batchDeleteAttachments (site admins): a file is unused when no
 * live page mentions its sign and it is bound to no live page; deleting in a batch counts what
 * was deleted and what was not found, and removes the rows.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { postMultipart, signOf } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
const { as } = suite;
let owner: TestUser;
let admin: TestUser;
let itemId: number;

beforeAll(async () => {
  owner = await makeUser();
  admin = await makeUser({ admin: true });
  ({ item_id: itemId } = await makeItem(owner));
});

async function upload(name: string, fields: Record<string, number> = {}): Promise<UploadFileDoc> {
  const answer = await postMultipart(suite.server.url, 'page/upload', [
    { name: 'user_token', value: owner.user_token },
    ...Object.entries(fields).map(([field, value]) => ({ name: field, value: String(value) })),
    { name: 'file', filename: name, content: Buffer.from(`contents of ${name}`) },
  ]);
  if (answer.body.success !== 1) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  return (await UploadFile.findOne({ sign: signOf(answer.body.url) }).lean<UploadFileDoc>())!;
}

interface Unused {
  list: Array<{ file_id: number; display_name: string; username: string; file_size_m: number }>;
  total: number;
}

describe('attachment/getUnusedList and batchDeleteAttachments', () => {
  test('only site admins: anonymous 10102, others 10103', async () => {
    for (const action of ['getUnusedList', 'batchDeleteAttachments']) {
      expect((await suite.server.api.fail(`attachment/${action}`)).error_code).toBe(10102);
      expect((await as(owner).fail(`attachment/${action}`, { file_ids: '1' })).error_code).toBe(
        10103,
      );
    }
  });

  test('files mentioned in a live page or bound to one are used; the rest are listed, then deleted', async () => {
    const mentioned = await upload('mentioned.txt');
    const bound = await upload('bound.txt');
    const orphan = await upload('orphan.txt');
    const onDeletedPage = await upload('deleted-page.txt');
    await makePage(owner, itemId, {
      content: `see [file](/server/?s=/api/attachment/visitFile&sign=${mentioned.sign})`,
    });
    const page = await makePage(owner, itemId);
    await as(owner).ok('attachment/bindingPage', { file_id: bound.file_id, page_id: page.page_id });
    const gone = await makePage(owner, itemId, { content: `![x](${onDeletedPage.sign})` });
    await as(owner).ok('page/delete', { page_id: gone.page_id });

    const unused = await as(admin).ok<Unused>('attachment/getUnusedList', { count: 50 });
    const names = unused.list.map((f) => f.display_name).sort();
    expect(names).toEqual(['deleted-page.txt', 'orphan.txt']);
    expect(unused.total).toBe(2);
    expect(unused.list[0]).toMatchObject({
      username: owner.username,
      file_size_m: expect.any(Number),
    });
    const filtered = await as(admin).ok<Unused>('attachment/getUnusedList', {
      display_name: 'orph',
    });
    expect(filtered.list.map((f) => f.file_id)).toEqual([orphan.file_id]);
    expect(
      (await as(admin).ok<Unused>('attachment/getUnusedList', { username: 'nobody-here' })).total,
    ).toBe(0);

    const answer = await as(admin).ok('attachment/batchDeleteAttachments', {
      file_ids: `${orphan.file_id},${onDeletedPage.file_id},999999`,
    });
    expect(answer).toEqual({ success: 2, failed: 1 });
    expect(
      await UploadFile.countDocuments({
        file_id: { $in: [orphan.file_id, onDeletedPage.file_id] },
      }),
    ).toBe(0);
    expect(
      await UploadFile.countDocuments({ file_id: { $in: [mentioned.file_id, bound.file_id] } }),
    ).toBe(2);
    expect((await as(admin).ok<Unused>('attachment/getUnusedList')).total).toBe(0);
  });

  test('an empty id list is refused with 10101 and deletes nothing', async () => {
    const kept = await upload('kept.txt');
    expect(
      (await as(admin).fail('attachment/batchDeleteAttachments', { file_ids: '' })).error_code,
    ).toBe(10101);
    expect(await UploadFile.countDocuments({ file_id: kept.file_id })).toBe(1);
  });
});
