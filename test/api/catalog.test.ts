/**
 * catalog/catList, catListGroup, catListName, getPagesBycat, save and delete over real HTTP: the
 * permission matrix (anonymous, stranger, read-only member, editor, restricted editor, archived
 * item), bad input that writes nothing, levels and depth, the quota, change-log rows, events, and
 * deleted catalogs' pages landing in the recycle bin.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Item } from '../../models/items/schemas/item';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { Page } from '../../models/pages/schemas/page';
import { Recycle } from '../../models/pages/schemas/recycle';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite();
const { as } = suite;
let restricted: TestUser;
let itemId: number;
let privateItemId: number;
/** Tree of `itemId`: A ─ A1 ─ A1a, B. */
let A: number, A1: number, A1a: number, B: number;
let pages: Record<'root' | 'inA' | 'inA1' | 'inA1a' | 'inB' | 'draft', number>;

beforeAll(async () => {
  restricted = await makeUser();
  ({ item_id: itemId } = await makeItem(suite.owner, { item_name: 'Catalog item' }));
  ({ item_id: privateItemId } = await makeItem(suite.owner, {
    item_name: 'Private',
    password: 'secret-pw',
  }));
  A = await makeCatalog(suite.owner, itemId, 'A');
  A1 = await makeCatalog(suite.owner, itemId, 'A1', A);
  A1a = await makeCatalog(suite.owner, itemId, 'A1a', A1);
  B = await makeCatalog(suite.owner, itemId, 'B');
  await addMember(itemId, suite.editor, 1);
  await addMember(itemId, suite.reader, 0);
  await addMember(itemId, restricted, 1, [A]);
  pages = {
    root: (await makePage(suite.owner, itemId, { title: 'Root page' })).page_id,
    inA: (await makePage(suite.owner, itemId, { title: 'In A', catId: A })).page_id,
    inA1: (await makePage(suite.owner, itemId, { title: 'In A1', catId: A1 })).page_id,
    inA1a: (await makePage(suite.owner, itemId, { title: 'In A1a', catId: A1a })).page_id,
    inB: (await makePage(suite.owner, itemId, { title: 'In B', catId: B })).page_id,
    draft: (await makePage(suite.editor, itemId, { title: 'Editor draft', catId: A, isDraft: 1 }))
      .page_id,
  };
});

const catalogsOf = (id: number) =>
  Catalog.find({ item_id: id }, { _id: 0 }).sort({ cat_id: 1 }).lean();
const pagesOf = (id: number) =>
  Page.find({ item_id: id }, { _id: 0, page_id: 1, cat_id: 1, s_number: 1, is_del: 1 })
    .sort({ page_id: 1 })
    .lean();

/** Collects events published while `fn` runs (the bus delivers in a microtask). */
async function published<N extends keyof DomainEvents>(
  name: N,
  fn: () => Promise<unknown>,
): Promise<DomainEvents[N][]> {
  const seen: DomainEvents[N][] = [];
  const off = events.subscribe(name, (payload) => void seen.push(payload));
  try {
    await fn();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    off();
  }
  return seen;
}

describe('catList, catListGroup, catListName', () => {
  test('item_id missing or 0 answers an empty list', async () => {
    expect(await suite.server.api.ok('catalog/catList', {})).toEqual([]);
    expect(await suite.server.api.ok('catalog/catListGroup', { item_id: 0 })).toEqual([]);
  });

  test('a private item refuses anonymous visitors and strangers with 10103, and the right _item_pwd opens it', async () => {
    await makeCatalog(suite.owner, privateItemId, 'Hidden');
    expect(
      (await suite.server.api.fail('catalog/catList', { item_id: privateItemId })).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.stranger).fail('catalog/catListName', { item_id: privateItemId })).error_code,
    ).toBe(10103);
    const rows = await suite.server.api.ok<{ cat_name: string }[]>('catalog/catList', {
      item_id: privateItemId,
      _item_pwd: 'secret-pw',
    });
    expect(rows.map((r) => r.cat_name)).toEqual(['Hidden']);
  });

  test('catList is the flat list in order with string fields and a formatted addtime', async () => {
    const rows = await suite.server.api.ok<Record<string, string>[]>('catalog/catList', {
      item_id: itemId,
    });
    expect(rows.map((r) => r.cat_name)).toEqual(['A', 'A1', 'A1a', 'B']);
    expect(rows[0]).toEqual({
      cat_id: String(A),
      cat_name: 'A',
      item_id: String(itemId),
      s_number: '99',
      addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      parent_cat_id: '0',
      level: '2',
    });
    expect(rows[2]).toMatchObject({ cat_id: String(A1a), parent_cat_id: String(A1), level: '4' });
  });

  test('catListGroup nests children under `sub`', async () => {
    const tree = await as(suite.reader).ok<
      {
        cat_name: string;
        sub: { cat_name: string; sub: { cat_name: string; sub: unknown[] }[] }[];
      }[]
    >('catalog/catListGroup', { item_id: itemId });
    expect(tree.map((t) => t.cat_name)).toEqual(['A', 'B']);
    expect(tree[0].sub[0].cat_name).toBe('A1');
    expect(tree[0].sub[0].sub[0]).toMatchObject({ cat_name: 'A1a', sub: [] });
    expect(tree[1].sub).toEqual([]);
  });

  test('catListName lists pre-order with slash paths and no `sub`', async () => {
    const rows = await as(suite.editor).ok<Record<string, string>[]>('catalog/catListName', {
      item_id: itemId,
    });
    expect(rows.map((r) => r.cat_name)).toEqual(['A', 'A/A1', 'A/A1/A1a', 'B']);
    expect(rows[0]).not.toHaveProperty('sub');
  });

  test('a member restricted to A sees A and everything below it, nothing else', async () => {
    const rows = await as(restricted).ok<{ cat_name: string }[]>('catalog/catListName', {
      item_id: itemId,
    });
    expect(rows.map((r) => r.cat_name)).toEqual(['A', 'A/A1', 'A/A1/A1a']);
  });
});

describe('getPagesBycat', () => {
  test('anonymous → 10102', async () => {
    expect(
      (await suite.server.api.fail('catalog/getPagesBycat', { item_id: itemId, cat_id: A }))
        .error_code,
    ).toBe(10102);
  });

  test('item_id or cat_id missing → 10101; a catalog of another item → 10101', async () => {
    expect(
      (await as(suite.owner).fail('catalog/getPagesBycat', { item_id: itemId })).error_code,
    ).toBe(10101);
    expect((await as(suite.owner).fail('catalog/getPagesBycat', { cat_id: A })).error_code).toBe(
      10101,
    );
    const other = await makeCatalog(suite.owner, privateItemId, 'Elsewhere');
    expect(
      (await as(suite.owner).fail('catalog/getPagesBycat', { item_id: itemId, cat_id: other }))
        .error_code,
    ).toBe(10101);
  });

  test('read-only members and strangers → 10103; a restricted editor outside their catalog → 10103', async () => {
    expect(
      (await as(suite.reader).fail('catalog/getPagesBycat', { item_id: itemId, cat_id: A }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(suite.stranger).fail('catalog/getPagesBycat', { item_id: itemId, cat_id: A }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(restricted).fail('catalog/getPagesBycat', { item_id: itemId, cat_id: B }))
        .error_code,
    ).toBe(10103);
  });

  test("editors get the catalog's pages in order; another author's draft is left out", async () => {
    const forOwner = await as(suite.owner).ok('catalog/getPagesBycat', {
      item_id: itemId,
      cat_id: A,
    });
    expect(forOwner).toEqual([{ page_id: String(pages.inA), page_title: 'In A', s_number: '99' }]);
    const forAuthor = await as(suite.editor).ok<{ page_title: string }[]>('catalog/getPagesBycat', {
      item_id: itemId,
      cat_id: A,
    });
    expect(forAuthor.map((p) => p.page_title)).toEqual(['In A', 'Editor draft']);
    const inside = await as(restricted).ok<unknown[]>('catalog/getPagesBycat', {
      item_id: itemId,
      cat_id: A1,
    });
    expect(inside).toHaveLength(1);
  });
});

describe('save', () => {
  test('anonymous → 10102, nothing written', async () => {
    const before = await catalogsOf(itemId);
    expect(
      (await suite.server.api.fail('catalog/save', { item_id: itemId, cat_name: 'X' })).error_code,
    ).toBe(10102);
    expect(await catalogsOf(itemId)).toEqual(before);
  });

  test('bad input → 10101 and nothing written: no name, no item, operator object, parent elsewhere, own parent, too deep', async () => {
    const before = await catalogsOf(itemId);
    const other = await makeCatalog(suite.owner, privateItemId, 'Foreign parent');
    const cases = [
      { item_id: itemId, cat_name: '   ' },
      { cat_name: 'No item' },
      { item_id: itemId, cat_name: 'x'.repeat(201) },
      { item_id: itemId, cat_name: 'Foreign', parent_cat_id: other },
      { item_id: itemId, cat_name: 'Self', cat_id: A1, parent_cat_id: A1 },
      { item_id: itemId, cat_name: 'Too deep', parent_cat_id: A1a },
      { item_id: itemId, cat_name: 'Cycle', cat_id: A, parent_cat_id: A1a },
      { item_id: itemId, cat_name: 'Missing', cat_id: 987654 },
    ];
    for (const params of cases) {
      const answer = await as(suite.owner).fail('catalog/save', params);
      expect([params, answer.error_code]).toEqual([params, 10101]);
    }
    const injected = await as(suite.owner).fail(
      'catalog/save',
      { item_id: itemId, cat_name: { $gt: '' } } as never,
      { json: true },
    );
    expect(injected.error_code).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('catalog/save', {
          item_id: itemId,
          cat_name: 'Deep',
          parent_cat_id: A1a,
        })
      ).error_message,
    ).toMatch(/at most 3 levels/);
    expect(await catalogsOf(itemId)).toEqual(before);
  });

  test('strangers, read-only members and everyone on an archived item → 10103', async () => {
    const before = await catalogsOf(itemId);
    expect(
      (await as(suite.stranger).fail('catalog/save', { item_id: itemId, cat_name: 'S' }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(suite.reader).fail('catalog/save', { item_id: itemId, cat_name: 'R' })).error_code,
    ).toBe(10103);
    expect(
      (
        await as(suite.reader).fail('catalog/save', {
          item_id: itemId,
          cat_id: B,
          cat_name: 'Renamed by reader',
        })
      ).error_code,
    ).toBe(10103);
    const { item_id: archived } = await makeItem(suite.owner, { item_name: 'Archived' });
    await Item.updateOne({ item_id: archived }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    expect(
      (await as(suite.owner).fail('catalog/save', { item_id: archived, cat_name: 'Late' }))
        .error_code,
    ).toBe(10103);
    expect(await catalogsOf(archived)).toEqual([]);
    expect(await catalogsOf(itemId)).toEqual(before);
  });

  test('a restricted editor may create and rename inside their catalog only, never at the top or in another catalog', async () => {
    const before = await catalogsOf(itemId);
    for (const refused of [
      { cat_name: 'Top', parent_cat_id: 0 },
      { cat_name: 'In B', parent_cat_id: B },
      { cat_id: B, cat_name: 'B!', parent_cat_id: 0 },
      { cat_id: A1, cat_name: 'A1', parent_cat_id: B },
    ]) {
      const answer = await as(restricted).fail('catalog/save', { item_id: itemId, ...refused });
      expect({ refused, code: answer.error_code }).toEqual({ refused, code: 10103 });
    }
    expect(await catalogsOf(itemId)).toEqual(before);

    const made = await as(restricted).ok<number>('catalog/save', {
      item_id: itemId,
      cat_name: 'Mine',
      parent_cat_id: A,
    });
    expect(await Catalog.findOne({ cat_id: made }).lean()).toMatchObject({
      parent_cat_id: A,
      level: 3,
    });
    await as(restricted).ok('catalog/save', {
      item_id: itemId,
      cat_id: made,
      cat_name: 'Mine renamed',
      parent_cat_id: A,
    });
    expect((await Catalog.findOne({ cat_id: made }).lean())?.cat_name).toBe('Mine renamed');
    await as(suite.owner).ok('catalog/delete', { cat_id: made });
  });

  test('create answers the bare new cat_id, computes the level, logs the change and publishes menu.changed', async () => {
    let catId = 0;
    const seen = await published('menu.changed', async () => {
      const answer = await as(suite.editor).call('catalog/save', {
        item_id: itemId,
        cat_name: '  Guides  ',
        parent_cat_id: B,
        s_number: 5,
      });
      expect(answer.body).toEqual({ error_code: 0, data: expect.any(Number) });
      catId = answer.body.data as number;
    });
    expect(seen).toEqual([{ itemId, byUid: suite.editor.uid }]);
    expect(await Catalog.findOne({ cat_id: catId }, { _id: 0 }).lean()).toMatchObject({
      cat_name: 'Guides',
      item_id: itemId,
      parent_cat_id: B,
      level: 3,
      s_number: 5,
    });
    const log = await ItemChangeLog.findOne({ item_id: itemId, op_object_id: catId }).lean();
    expect(log).toMatchObject({
      uid: suite.editor.uid,
      op_action_type: 'create',
      op_object_type: 'catalog',
      op_object_name: 'Guides',
    });
    await as(suite.owner).ok('catalog/delete', { cat_id: catId });
  });

  test('re-parenting moves the whole subtree and recomputes every level below; a rename without parent_cat_id keeps the parent', async () => {
    const X = await makeCatalog(suite.owner, itemId, 'X');
    const X1 = await makeCatalog(suite.owner, itemId, 'X1', X);
    await as(suite.owner).ok('catalog/save', {
      item_id: itemId,
      cat_id: X,
      cat_name: 'X',
      parent_cat_id: B,
    });
    expect(await Catalog.findOne({ cat_id: X }).lean()).toMatchObject({
      parent_cat_id: B,
      level: 3,
    });
    expect(await Catalog.findOne({ cat_id: X1 }).lean()).toMatchObject({
      parent_cat_id: X,
      level: 4,
    });
    await as(suite.owner).ok('catalog/save', { item_id: itemId, cat_id: X, cat_name: 'X renamed' });
    expect(await Catalog.findOne({ cat_id: X }).lean()).toMatchObject({
      cat_name: 'X renamed',
      parent_cat_id: B,
      level: 3,
    });
    const log = await ItemChangeLog.findOne({
      item_id: itemId,
      op_object_id: X,
      op_action_type: 'update',
    })
      .sort({ id: -1 })
      .lean();
    expect(log?.op_object_name).toBe('X renamed');
    // Moving X under A1 would put X1 at a fourth level.
    expect(
      (
        await as(suite.owner).fail('catalog/save', {
          item_id: itemId,
          cat_id: X,
          cat_name: 'X',
          parent_cat_id: A1,
        })
      ).error_code,
    ).toBe(10101);
    await as(suite.owner).ok('catalog/delete', { cat_id: X });
  });

  test('the 1500-catalog quota answers 10100 and writes nothing', async () => {
    const { item_id: full } = await makeItem(suite.owner, { item_name: 'Full' });
    await Catalog.insertMany(
      Array.from({ length: 1500 }, (_, i) => ({
        cat_id: 900_000_000 + i,
        cat_name: `c${i}`,
        item_id: full,
        addtime: 1,
        level: 2,
      })),
    );
    forgetCachedReads();
    expect(
      (await as(suite.owner).fail('catalog/save', { item_id: full, cat_name: 'One more' }))
        .error_code,
    ).toBe(10100);
    expect(await Catalog.countDocuments({ item_id: full })).toBe(1500);
  });
});

describe('delete', () => {
  test('anonymous → 10102; missing or unknown cat_id → 10101', async () => {
    expect((await suite.server.api.fail('catalog/delete', { cat_id: B })).error_code).toBe(10102);
    expect((await as(suite.owner).fail('catalog/delete', {})).error_code).toBe(10101);
    expect((await as(suite.owner).fail('catalog/delete', { cat_id: 999_999 })).error_code).toBe(
      10101,
    );
  });

  test('read-only members, strangers and a restricted editor outside (or on) their catalog → 10103, nothing deleted', async () => {
    const before = [await catalogsOf(itemId), await pagesOf(itemId)];
    expect((await as(suite.reader).fail('catalog/delete', { cat_id: B })).error_code).toBe(10103);
    expect((await as(suite.stranger).fail('catalog/delete', { cat_id: B })).error_code).toBe(10103);
    expect((await as(restricted).fail('catalog/delete', { cat_id: B })).error_code).toBe(10103);
    expect((await as(restricted).fail('catalog/delete', { cat_id: A })).error_code).toBe(10103);
    expect([await catalogsOf(itemId), await pagesOf(itemId)]).toEqual(before);
  });

  test('deleting a catalog removes its sub-catalogs and sends all their pages to the recycle bin, recoverably', async () => {
    const deleted = await published('page.deleted', async () => {
      expect(await as(suite.editor).ok('catalog/delete', { cat_id: A1 })).toEqual({
        success: true,
      });
    });
    expect(deleted.map((e) => e.pageId).sort()).toEqual([pages.inA1, pages.inA1a].sort());
    expect(await Catalog.countDocuments({ cat_id: { $in: [A1, A1a] } })).toBe(0);
    expect(await Catalog.countDocuments({ cat_id: A })).toBe(1);
    const gone = await Page.find({ page_id: { $in: [pages.inA1, pages.inA1a] } }).lean();
    expect(gone.map((p) => p.is_del)).toEqual([1, 1]);
    const bin = await Recycle.find({ item_id: itemId }).lean();
    expect(bin.map((r) => r.page_id).sort()).toEqual([pages.inA1, pages.inA1a].sort());
    expect(bin[0]).toMatchObject({ del_by_uid: suite.editor.uid });
    expect(
      await ItemChangeLog.findOne({
        item_id: itemId,
        op_action_type: 'delete',
        op_object_id: A1,
      }).lean(),
    ).toMatchObject({
      op_object_type: 'catalog',
      op_object_name: 'A1',
    });

    // The owner recovers one: its catalog is gone, so it comes back at the root.
    await as(suite.owner).ok('recycle/recover', { item_id: itemId, page_id: pages.inA1a });
    expect(await Page.findOne({ page_id: pages.inA1a }).lean()).toMatchObject({
      is_del: 0,
      cat_id: 0,
    });
  });
});

describe('an archived item is read-only for every catalog write', () => {
  test('save, delete, batUpdate and copy in or into it → 10103; listings still answer', async () => {
    const { item_id: archived } = await makeItem(suite.owner, { item_name: 'Frozen' });
    const kept = await makeCatalog(suite.owner, archived, 'Kept');
    await Item.updateOne({ item_id: archived }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    const before = await catalogsOf(archived);
    const cats = JSON.stringify([
      { cat_id: kept, cat_name: 'Moved', page_id: 0, parent_cat_id: 0, level: 2, s_number: 3 },
    ]);
    expect(
      (
        await as(suite.owner).fail('catalog/save', {
          item_id: archived,
          cat_id: kept,
          cat_name: 'New name',
        })
      ).error_code,
    ).toBe(10103);
    expect((await as(suite.owner).fail('catalog/delete', { cat_id: kept })).error_code).toBe(10103);
    expect(
      (await as(suite.owner).fail('catalog/batUpdate', { item_id: archived, cats })).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: B, to_item_id: archived })).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: kept, to_item_id: itemId, is_del: 1 }))
        .error_code,
    ).toBe(10103);
    expect(await catalogsOf(archived)).toEqual(before);
    expect(
      await as(suite.owner).ok<unknown[]>('catalog/catList', { item_id: archived }),
    ).toHaveLength(1);
  });
});
