/**
 * template/* over real HTTP: saving, listing, deleting and sharing page templates. Templates are
 * the suite.owner's alone; sharing needs edit rights on every target item and is all-or-nothing; an
 * item's templates are listed to its editors. Content comes back exactly as written.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { archiveItem } from '../../models/items/items';
import { Template } from '../../models/templates/schemas/template';
import { TemplateItem } from '../../models/templates/schemas/templateItem';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { apiSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite();
const { as } = suite;
let itemId: number;
let otherItemId: number;

const MARKDOWN = `# API "doc"\n\n<script>alert('x')</script> & <b>bold</b> &amp; 'quotes'\n`;

beforeAll(async () => {
  ({ item_id: itemId } = await makeItem(suite.owner));
  ({ item_id: otherItemId } = await makeItem(suite.editor));
  await addMember(itemId, suite.editor, 1);
  await addMember(itemId, suite.reader, 0);
});

async function saveTemplate(user: TestUser, title = 'T', content = MARKDOWN): Promise<number> {
  const { id } = await as(user).ok<{ id: number }>('template/save', {
    template_title: title,
    template_content: content,
  });
  return id;
}

describe('template/save', () => {
  test('anonymous callers get 10102 and nothing is stored', async () => {
    const before = await Template.countDocuments();
    const answer = await suite.server.api.fail('template/save', { template_title: 'x' });
    expect(answer.error_code).toBe(10102);
    expect(await Template.countDocuments()).toBe(before);
  });

  test('a missing, blank, oversized or non-string title is refused with 10101 and nothing is stored', async () => {
    const before = await Template.countDocuments();
    for (const params of [
      { template_content: 'body' },
      { template_title: '   ', template_content: 'body' },
      { template_title: 'x'.repeat(256), template_content: 'body' },
    ])
      expect((await as(suite.owner).fail('template/save', params)).error_code).toBe(10101);
    const injected = await as(suite.owner).fail(
      'template/save',
      { template_title: { $ne: '' }, template_content: 'body' },
      { json: true },
    );
    expect(injected.error_code).toBe(10101);
    expect(await Template.countDocuments()).toBe(before);
  });

  test('stores the Markdown exactly as written, owned by the caller, and answers its numeric id', async () => {
    const id = await saveTemplate(suite.owner, '  API template  ');
    expect(typeof id).toBe('number');
    const row = await Template.findOne({ id }).lean();
    expect(row).toMatchObject({
      uid: suite.owner.uid,
      username: suite.owner.username,
      template_title: 'API template',
      template_content: MARKDOWN,
    });
  });
});

describe('template/getMyList', () => {
  test('anonymous callers get 10102', async () => {
    expect((await suite.server.api.fail('template/getMyList')).error_code).toBe(10102);
  });

  test('a user without templates gets []', async () => {
    expect(await as(suite.stranger).ok('template/getMyList')).toEqual([]);
  });

  test("lists only the caller's templates, newest first, content un-escaped, with their shares", async () => {
    const user = await makeUser();
    const { item_id } = await makeItem(user);
    const first = await saveTemplate(user, 'first');
    const second = await saveTemplate(user, 'second', 'plain');
    await saveTemplate(suite.stranger, 'not mine');
    await as(user).ok('template/shareToItem', { template_id: first, item_id: String(item_id) });
    await Template.updateOne({ id: first }, { $set: { addtime: 1_000 } });
    await Template.updateOne({ id: second }, { $set: { addtime: 2_000 } });

    const list = await as(user).ok<any[]>('template/getMyList');
    expect(list.map((t) => t.id)).toEqual([String(second), String(first)]);
    expect(list[1]).toMatchObject({
      id: String(first),
      uid: String(user.uid),
      username: user.username,
      template_title: 'first',
      template_content: MARKDOWN,
      addtime: '1970-01-01 08:16:40',
      share_item_count: 1,
    });
    expect(list[1].share_item).toEqual([
      {
        id: expect.any(String),
        template_id: String(first),
        item_id: String(item_id),
        uid: String(user.uid),
        username: user.username,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    ]);
    expect(list[0]).toMatchObject({ share_item: [], share_item_count: 0 });
    // ShowDoc's older name answers the same list.
    expect(await as(user).ok('template/getList')).toEqual(list);
  });
});

describe('template/getItemList', () => {
  test('anonymous 10102; item_id ≤ 0 10101; readers, strangers and missing items 10103', async () => {
    expect(
      (await suite.server.api.fail('template/getItemList', { item_id: itemId })).error_code,
    ).toBe(10102);
    expect((await as(suite.owner).fail('template/getItemList', { item_id: 0 })).error_code).toBe(
      10101,
    );
    for (const user of [suite.reader, suite.stranger])
      expect((await as(user).fail('template/getItemList', { item_id: itemId })).error_code).toBe(
        10103,
      );
    expect(
      (await as(suite.owner).fail('template/getItemList', { item_id: 999_999 })).error_code,
    ).toBe(10103);
  });

  test("gives editors the item's templates merged with their share row (id, uid, username are the share's)", async () => {
    const { item_id } = await makeItem(suite.owner);
    await addMember(item_id, suite.editor, 1);
    const id = await saveTemplate(suite.editor, 'shared by suite.editor');
    await as(suite.editor).ok('template/shareToItem', {
      template_id: id,
      item_id: String(item_id),
    });
    const share = await TemplateItem.findOne({ template_id: id, item_id }).lean();

    const rows = await as(suite.owner).ok<any[]>('template/getItemList', { item_id });
    expect(rows).toEqual([
      {
        id: String(share!.id),
        template_id: String(id),
        item_id: String(item_id),
        uid: String(suite.editor.uid),
        username: suite.editor.username,
        created_at: share!.created_at,
        template_title: 'shared by suite.editor',
        template_content: MARKDOWN,
        addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    ]);
    expect(await as(suite.editor).ok('template/getItemList', { item_id })).toEqual(rows);
  });
});

describe('template/delete', () => {
  test('anonymous 10102; id ≤ 0 10101; someone else’s template 10103 — and it stays', async () => {
    const id = await saveTemplate(suite.owner);
    expect((await suite.server.api.fail('template/delete', { id })).error_code).toBe(10102);
    expect((await as(suite.owner).fail('template/delete', { id: 0 })).error_code).toBe(10101);
    expect((await as(suite.editor).fail('template/delete', { id })).error_code).toBe(10103);
    expect((await as(suite.owner).fail('template/delete', { id: 999_999 })).error_code).toBe(10103);
    expect(await Template.exists({ id })).not.toBeNull();
  });

  test('the suite.owner deletes the template together with all its shares', async () => {
    const id = await saveTemplate(suite.owner);
    await as(suite.owner).ok('template/shareToItem', { template_id: id, item_id: String(itemId) });
    expect(await as(suite.owner).ok('template/delete', { id })).toEqual([]);
    expect(await Template.exists({ id })).toBeNull();
    expect(await TemplateItem.countDocuments({ template_id: id })).toBe(0);
  });
});

describe('template/shareToItem', () => {
  test('anonymous 10102; missing template id, missing or malformed item list 10101; nothing changes', async () => {
    const id = await saveTemplate(suite.owner);
    await as(suite.owner).ok('template/shareToItem', { template_id: id, item_id: String(itemId) });
    expect(
      (await suite.server.api.fail('template/shareToItem', { template_id: id, item_id: itemId }))
        .error_code,
    ).toBe(10102);
    for (const params of [
      { item_id: String(itemId) },
      { template_id: id },
      { template_id: id, item_id: '' },
      { template_id: id, item_id: `${itemId},abc` },
    ])
      expect((await as(suite.owner).fail('template/shareToItem', params)).error_code).toBe(10101);
    expect(await TemplateItem.find({ template_id: id }).distinct('item_id')).toEqual([itemId]);
  });

  test("someone else's template 10103", async () => {
    const id = await saveTemplate(suite.owner);
    const answer = await as(suite.editor).fail('template/shareToItem', {
      template_id: id,
      item_id: String(otherItemId),
    });
    expect(answer.error_code).toBe(10103);
    expect(await TemplateItem.countDocuments({ template_id: id })).toBe(0);
  });

  test('an item the caller may not edit (read-only, suite.stranger, archived) is refused and the old shares stay', async () => {
    const id = await saveTemplate(suite.reader);
    const { item_id: ownItem } = await makeItem(suite.reader);
    await as(suite.reader).ok('template/shareToItem', {
      template_id: id,
      item_id: String(ownItem),
    });
    const { item_id: archived } = await makeItem(suite.reader);
    await archiveItem(await actorOf(suite.reader), archived, suite.reader.password);
    for (const target of [itemId, otherItemId, archived, 999_999]) {
      const answer = await as(suite.reader).fail('template/shareToItem', {
        template_id: id,
        item_id: `${ownItem},${target}`,
      });
      expect(answer.error_code).toBe(10103);
      expect(answer.error_message).toContain(String(target));
    }
    expect(await TemplateItem.find({ template_id: id }).distinct('item_id')).toEqual([ownItem]);
  });

  test('replaces the share set: kept shares keep their row, dropped ones go, "0" shares to nothing', async () => {
    const id = await saveTemplate(suite.editor);
    await as(suite.editor).ok('template/shareToItem', {
      template_id: id,
      item_id: `${itemId},${otherItemId}`,
    });
    const kept = await TemplateItem.findOne({ template_id: id, item_id: otherItemId }).lean();
    expect(
      await as(suite.editor).ok('template/shareToItem', {
        template_id: id,
        item_id: `${otherItemId},${otherItemId}`,
      }),
    ).toEqual([]);
    const rows = await TemplateItem.find({ template_id: id }).lean();
    expect(rows.map((r) => r.item_id)).toEqual([otherItemId]);
    expect(rows[0].id).toBe(kept!.id);
    // Array form, as a JSON client would send it.
    await as(suite.editor).ok(
      'template/shareToItem',
      { template_id: id, item_id: [itemId] },
      { json: true },
    );
    expect(await TemplateItem.find({ template_id: id }).distinct('item_id')).toEqual([itemId]);
    await as(suite.editor).ok('template/shareToItem', { template_id: id, item_id: '0' });
    expect(await TemplateItem.countDocuments({ template_id: id })).toBe(0);
  });
});

describe('template/getShareItemList', () => {
  test('the suite.owner gets the share rows; others 10103; anonymous 10102', async () => {
    const id = await saveTemplate(suite.owner);
    await as(suite.owner).ok('template/shareToItem', { template_id: id, item_id: String(itemId) });
    expect(
      (await suite.server.api.fail('template/getShareItemList', { template_id: id })).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('template/getShareItemList', { template_id: id })).error_code,
    ).toBe(10103);
    const rows = await as(suite.owner).ok<any[]>('template/getShareItemList', { template_id: id });
    expect(rows.map((r) => r.item_id)).toEqual([String(itemId)]);
  });
});
