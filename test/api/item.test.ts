/**
 * item/add (create and copy), item/update and item/detail over real HTTP: who may, what bad input
 * gets, and what ends up in the database.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { nextId } from '../../models/platform/counters';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { verifyItemPassword } from '../../models/access/itemPasswords';
import { SINGLE_PAGE_WELCOME } from '../../models/items/items';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Item } from '../../models/items/schemas/item';
import { ItemGroup } from '../../models/items/schemas/itemGroup';
import { Page } from '../../models/pages/schemas/page';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';
import { addMember, makeItem } from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

const suite = serverSuite();
const { as } = suite;
let owner: TestUser;
let other: TestUser;
const itemCount = () => Item.countDocuments({});

beforeAll(async () => {
  owner = await makeUser();
  other = await makeUser();
});

async function catalog(itemId: number, name: string, parent = 0, level = 2): Promise<number> {
  const cat_id = await nextId('cat_id');
  await Catalog.create({
    cat_id,
    cat_name: name,
    item_id: itemId,
    addtime: 1,
    parent_cat_id: parent,
    level,
    s_number: 5,
  });
  forgetCachedReads();
  return cat_id;
}

async function page(
  itemId: number,
  catId: number,
  title: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const page_id = await nextId('page_id');
  await Page.create({
    page_id,
    item_id: itemId,
    cat_id: catId,
    page_title: title,
    page_content: `# ${title}`,
    addtime: 1,
    author_uid: owner.uid,
    author_username: owner.username,
    ...extra,
  });
  forgetCachedReads();
  return page_id;
}

describe('item/add', () => {
  test('anonymous callers get 10102 and nothing is created', async () => {
    const before = await itemCount();
    expect((await suite.server.api.fail('item/add', { item_name: 'Nope' })).error_code).toBe(10102);
    expect(await itemCount()).toBe(before);
  });

  test('bad input gets its code and creates nothing', async () => {
    await makeItem(owner, { item_domain: 'takenaddr' });
    const before = await itemCount();
    const cases: [Record<string, unknown>, number, { json?: boolean }?][] = [
      [{ item_name: '   ' }, 10100],
      [{ item_name: 'x'.repeat(101) }, 10101],
      [{ item_name: 'Dash', item_domain: 'has-dash' }, 10305],
      [{ item_name: 'Digits', item_domain: '12345' }, 10305],
      [{ item_name: 'Taken', item_domain: 'takenaddr' }, 10304],
      [{ item_name: 'Type', item_type: 9 }, 10101],
      [{ item_name: 'Op', password: { $ne: '' } }, 10101],
      [{ item_name: { $ne: '' } }, 10101, { json: true }],
      [{ item_name: ['a', 'b'] }, 10101, { json: true }],
    ];
    for (const [params, code, options] of cases) {
      const answer = await as(owner).fail('item/add', params as never, options);
      expect([params, answer.error_code]).toEqual([params, code]);
    }
    expect(await itemCount()).toBe(before);
  });

  test('an oversize body is refused with an envelope and writes nothing', async () => {
    const before = await itemCount();
    const res = await suite.server.request('/api/item/add', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `user_token=${owner.user_token}&item_name=${'x'.repeat(2 * 1024 * 1024 + 10)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error_code: 10101 });
    expect(await itemCount()).toBe(before);
  });

  test('prototype-pollution keys are dropped, the item is still made and no prototype changes', async () => {
    const res = await suite.server.request('/api/item/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"user_token":"${owner.user_token}","item_name":"Polluter","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}`,
    });
    const body = (await res.json()) as { error_code: number; data: { item_id: number } };
    expect(body.error_code).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await Item.findOne({ item_id: body.data.item_id }).lean()).toMatchObject({
      item_name: 'Polluter',
    });
  });

  test('a regular item is stored with the caller as owner, a hashed visit password and its address; item.changed is published', async () => {
    const seen: DomainEvents['item.changed'][] = [];
    const off = events.subscribe('item.changed', (e) => void seen.push(e));
    const data = await as(owner).ok<{ item_id: number }>('item/add', {
      item_name: '  Handbook  ',
      item_description: 'All about it',
      password: 'visit-me',
      item_domain: 'handbook1',
      item_type: 1,
      allow_comment: 1,
    });
    await new Promise((r) => setImmediate(r));
    off();
    expect(typeof data.item_id).toBe('number');
    const row = await Item.findOne({ item_id: data.item_id }).lean();
    expect(row).toMatchObject({
      item_name: 'Handbook',
      uid: owner.uid,
      username: owner.username,
      item_domain: 'handbook1',
      item_type: 1,
      allow_comment: 1,
      is_del: 0,
    });
    expect(row!.password).not.toBe('visit-me');
    expect(await verifyItemPassword(row!, 'visit-me')).toBe(true);
    expect(seen).toContainEqual({ itemId: data.item_id, change: 'created', byUid: owner.uid });
  });

  test('a single-page item gets one welcome page named after it; a spreadsheet one empty page', async () => {
    const single = await as(owner).ok<{ item_id: number }>('item/add', {
      item_name: 'Solo',
      item_type: 2,
    });
    const pages = await Page.find({ item_id: single.item_id }).lean();
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({
      page_title: 'Solo',
      page_content: SINGLE_PAGE_WELCOME,
      author_uid: owner.uid,
      cat_id: 0,
    });
    const sheet = await as(owner).ok<{ item_id: number }>('item/add', {
      item_name: 'Sheet',
      item_type: 4,
    });
    const sheetPages = await Page.find({ item_id: sheet.item_id }).lean();
    expect(sheetPages.map((p) => [p.page_title, p.page_content])).toEqual([['Sheet', '']]);
    const regular = await as(owner).ok<{ item_id: number }>('item/add', { item_name: 'Reg' });
    expect(await Page.countDocuments({ item_id: regular.item_id })).toBe(0);
  });

  test('item_custom_id is taken as the custom address; groups of the caller get the item, others are ignored', async () => {
    const mine = await as(owner).ok<{ id: string }>('itemGroup/save', { group_name: 'Mine' });
    const theirs = await as(other).ok<{ id: string }>('itemGroup/save', { group_name: 'Theirs' });
    const data = await as(owner).ok<{ item_id: number }>('item/add', {
      item_name: 'Custom',
      item_custom_id: 'customaddr',
      item_group_ids: JSON.stringify([Number(mine.id), Number(theirs.id)]),
    });
    expect((await Item.findOne({ item_id: data.item_id }).lean())!.item_domain).toBe('customaddr');
    expect((await ItemGroup.findOne({ id: Number(mine.id) }).lean())!.item_ids).toBe(
      String(data.item_id),
    );
    expect((await ItemGroup.findOne({ id: Number(theirs.id) }).lean())!.item_ids).toBe('');
  });
});

describe('item/add with copy_item_id', () => {
  let source: number;
  let topA: number;
  let topB: number;
  let child: number;

  beforeAll(async () => {
    ({ item_id: source } = await makeItem(owner, {
      item_name: 'Source',
      password: 'src-pw',
      item_description: 'desc',
    }));
    topA = await catalog(source, 'A');
    topB = await catalog(source, 'B');
    child = await catalog(source, 'A1', topA, 3);
    await page(source, 0, 'Root page');
    await page(source, topA, 'In A');
    await page(source, child, 'In A1');
    await page(source, topB, 'In B');
    await page(source, topB, 'Draft', { is_draft: 1 });
    await page(source, topB, 'Deleted', { is_del: 1 });
  });

  test('an editor gets a deep copy: new ids, same tree, live non-draft pages authored by the copier', async () => {
    const editor = await makeUser();
    await addMember(source, editor, 1);
    const { item_id } = await as(editor).ok<{ item_id: number }>('item/add', {
      copy_item_id: source,
      item_name: 'Copied',
    });
    const item = await Item.findOne({ item_id }).lean();
    expect(item).toMatchObject({ item_name: 'Copied', item_description: 'desc', uid: editor.uid });
    expect(await verifyItemPassword(item!, 'src-pw')).toBe(true);
    const cats = await Catalog.find({ item_id }).lean();
    expect(cats.map((c) => c.cat_name).sort()).toEqual(['A', 'A1', 'B']);
    for (const c of cats) expect([topA, topB, child]).not.toContain(c.cat_id);
    const a = cats.find((c) => c.cat_name === 'A')!;
    expect(cats.find((c) => c.cat_name === 'A1')).toMatchObject({
      parent_cat_id: a.cat_id,
      level: 3,
    });
    const pages = await Page.find({ item_id }).lean();
    expect(pages.map((p) => p.page_title).sort()).toEqual(['In A', 'In A1', 'In B', 'Root page']);
    expect(new Set(pages.map((p) => p.author_uid))).toEqual(new Set([editor.uid]));
    expect(pages.find((p) => p.page_title === 'In A1')!.cat_id).toBe(
      cats.find((c) => c.cat_name === 'A1')!.cat_id,
    );
    // The source is untouched.
    expect(await Page.countDocuments({ item_id: source })).toBe(6);
  });

  test("a copied page starts without the source page's draft flag, its versions numbered from 0", async () => {
    await Page.updateOne(
      { item_id: source, page_title: 'In A' },
      { $set: { has_draft: 1, history_seq: 7, history_low: -3 } },
    );
    const { item_id } = await as(owner).ok<{ item_id: number }>('item/add', {
      copy_item_id: source,
      item_name: 'Fresh copy',
    });
    const copied = (await Page.findOne({ item_id, page_title: 'In A' }).lean())!;
    expect(copied.page_id).toBeGreaterThan(0);
    expect(copied.has_draft).toBeUndefined();
    expect(copied.history_seq).toBe(0);
    expect(copied.history_low).toBeUndefined();
  });

  test('a catalog-restricted editor copies only the catalogs they can see, and no root pages', async () => {
    const limited = await makeUser();
    await addMember(source, limited, 1, [topB]);
    const { item_id } = await as(limited).ok<{ item_id: number }>('item/add', {
      copy_item_id: source,
      item_name: 'Part',
    });
    expect((await Catalog.find({ item_id }).lean()).map((c) => c.cat_name)).toEqual(['B']);
    expect((await Page.find({ item_id }).lean()).map((p) => p.page_title)).toEqual(['In B']);
  });

  test('read-only members and strangers may not copy (10101) and nothing is created', async () => {
    const reader = await makeUser();
    await addMember(source, reader, 0);
    const before = await itemCount();
    expect(
      (await as(reader).fail('item/add', { copy_item_id: source, item_name: 'X' })).error_code,
    ).toBe(10101);
    expect(
      (await as(other).fail('item/add', { copy_item_id: source, item_name: 'X' })).error_code,
    ).toBe(10101);
    expect(await itemCount()).toBe(before);
  });
});

describe('item/update', () => {
  let itemId: number;
  let admin: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    ({ item_id: itemId } = await makeItem(owner, {
      item_name: 'Upd',
      item_description: 'd0',
      password: 'pw0',
    }));
    admin = await makeUser();
    editor = await makeUser();
    await addMember(itemId, admin, 2);
    await addMember(itemId, editor, 1);
  });
  const row = () => Item.findOne({ item_id: itemId }).lean();

  test('anonymous → 10102, stranger and editor → 10303; nothing changes', async () => {
    const before = await row();
    expect(
      (await suite.server.api.fail('item/update', { item_id: itemId, item_name: 'Hack' }))
        .error_code,
    ).toBe(10102);
    expect(
      (await as(other).fail('item/update', { item_id: itemId, item_name: 'Hack' })).error_code,
    ).toBe(10303);
    expect(
      (await as(editor).fail('item/update', { item_id: itemId, item_name: 'Hack' })).error_code,
    ).toBe(10303);
    expect(await row()).toEqual(before);
  });

  test('bad input: missing id, empty name, operator objects → error, nothing changes', async () => {
    const before = await row();
    expect((await as(owner).fail('item/update', { item_name: 'X' })).error_code).toBe(10101);
    expect(
      (await as(owner).fail('item/update', { item_id: itemId, item_name: ' ' })).error_code,
    ).toBe(10100);
    expect(
      (await as(owner).fail('item/update', { item_id: itemId, password: { $ne: '' } })).error_code,
    ).toBe(10101);
    expect(
      (await as(owner).fail('item/update', { item_id: { $gt: 0 }, item_name: 'X' }, { json: true }))
        .error_code,
    ).toBe(10101);
    expect(await row()).toEqual(before);
  });

  test('an item admin changes only the fields sent; the password survives an update that omits it', async () => {
    await as(admin).ok('item/update', { item_id: itemId, item_description: 'd1' });
    const after = await row();
    expect(after).toMatchObject({ item_name: 'Upd', item_description: 'd1' });
    expect(await verifyItemPassword(after!, 'pw0')).toBe(true);
  });

  test('is_private with an empty password keeps the current one; a new one replaces it; "open" clears it', async () => {
    await as(owner).ok('item/update', { item_id: itemId, password: '', is_private: 1 });
    expect(await verifyItemPassword((await row())!, 'pw0')).toBe(true);
    await as(owner).ok('item/update', { item_id: itemId, password: 'pw1' });
    const changed = await row();
    expect(await verifyItemPassword(changed!, 'pw1')).toBe(true);
    await as(owner).ok('item/update', { item_id: itemId, password: '' });
    expect((await row())!.password).toBe('');
    const answer = await as(owner).fail('item/update', {
      item_id: itemId,
      password: '',
      is_private: 1,
    });
    expect(answer).toMatchObject({
      error_code: 10101,
      error_message: expect.stringMatching(/password/),
    });
    expect((await row())!.password).toBe('');
  });

  test('simultaneous editing (co_edit) is switched on and off by a manager and announced as item.changed', async () => {
    const seen: DomainEvents['item.changed'][] = [];
    const stop = events.subscribe('item.changed', (e) => void seen.push(e));
    try {
      await as(owner).ok('item/update', { item_id: itemId, co_edit: 1 });
      expect((await row())!.co_edit).toBe(1);
      await as(owner).ok('item/update', { item_id: itemId, item_description: 'keeps co_edit' });
      expect((await row())!.co_edit).toBe(1);
      await as(owner).ok('item/update', { item_id: itemId, co_edit: 0 });
      expect((await row())!.co_edit).toBe(0);
      expect(
        seen.filter((e) => e.itemId === itemId && e.change === 'updated').length,
      ).toBeGreaterThanOrEqual(3);
    } finally {
      stop();
    }
  });
});

describe('item/detail', () => {
  test('managers get the row with group_ids and is_private but never the password; editors get 10303', async () => {
    const { item_id } = await makeItem(owner, { password: 'hidden' });
    const editor = await makeUser();
    await addMember(item_id, editor, 1);
    const group = await as(owner).ok<{ id: string }>('itemGroup/save', {
      group_name: 'G',
      item_ids: String(item_id),
    });
    expect((await suite.server.api.fail('item/detail', { item_id })).error_code).toBe(10102);
    expect((await as(editor).fail('item/detail', { item_id })).error_code).toBe(10303);
    const data = await as(owner).ok<Record<string, unknown>>('item/detail', { item_id });
    expect(data).toMatchObject({
      item_id: String(item_id),
      uid: String(owner.uid),
      password: '',
      is_private: 1,
      group_ids: [Number(group.id)],
    });
    expect(JSON.stringify(data)).not.toMatch(/\$2[aby]\$/);
  });

  test('an archived item still shows its detail to its manager', async () => {
    const { item_id } = await makeItem(owner);
    await Item.updateOne({ item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    expect(await as(owner).ok('item/detail', { item_id })).toMatchObject({ is_archived: '1' });
  });
});
