/**
 * catalog/batUpdate (the drag-and-drop tree save) and catalog/copy (copy or move a subtree) over
 * real HTTP. The point: a request that would scramble the tree — a cycle, a fourth level, a node
 * inside a page, ids of another item — is refused as a whole and the database is read afterwards
 * to prove nothing changed; good requests touch only what moved; copies and moves across items
 * respect who may edit where.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { Page } from '../../models/pages/schemas/page';
import { Recycle } from '../../models/pages/schemas/recycle';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite();
const { as } = suite;
let restricted: TestUser;

beforeAll(async () => {
  restricted = await makeUser();
});

/** Everything about an item's tree that a tree save could change. */
async function treeState(itemId: number) {
  const [catalogs, pages] = await Promise.all([
    Catalog.find({ item_id: itemId }, { _id: 0 }).sort({ cat_id: 1 }).lean(),
    Page.find(
      { item_id: itemId },
      { _id: 0, page_id: 1, cat_id: 1, s_number: 1, is_del: 1, page_title: 1 },
    )
      .sort({ page_id: 1 })
      .lean(),
  ]);
  return { catalogs, pages };
}

interface Fixture {
  itemId: number;
  /** A ─ A1 ─ A1a, B (top level), C (top level, empty). */
  A: number;
  A1: number;
  A1a: number;
  B: number;
  C: number;
  rootPage: number;
  pageA1: number;
  pageB: number;
}

async function fixture(): Promise<Fixture> {
  const { item_id: itemId } = await makeItem(suite.owner);
  const A = await makeCatalog(suite.owner, itemId, 'A');
  const A1 = await makeCatalog(suite.owner, itemId, 'A1', A);
  const A1a = await makeCatalog(suite.owner, itemId, 'A1a', A1);
  const B = await makeCatalog(suite.owner, itemId, 'B');
  const C = await makeCatalog(suite.owner, itemId, 'C');
  const rootPage = (await makePage(suite.owner, itemId, { title: 'Root' })).page_id;
  const pageA1 = (await makePage(suite.owner, itemId, { title: 'In A1', catId: A1 })).page_id;
  const pageB = (await makePage(suite.owner, itemId, { title: 'In B', catId: B })).page_id;
  await addMember(itemId, suite.editor, 1);
  await addMember(itemId, suite.reader, 0);
  await addMember(itemId, restricted, 1, [A]);
  return { itemId, A, A1, A1a, B, C, rootPage, pageA1, pageB };
}

type Node = {
  cat_id?: number;
  page_id?: number;
  cat_name?: string;
  parent_cat_id: number;
  page_cat_id?: number;
  level: number;
  s_number: number;
};

/** The flattened tree as ShowDoc's web client sends it after a drag. */
function flatTree(f: Fixture, overrides: Partial<Record<number, Partial<Node>>> = {}): Node[] {
  const nodes: Node[] = [
    { cat_id: f.A, cat_name: 'A', page_id: 0, parent_cat_id: 0, level: 2, s_number: 1 },
    { cat_id: f.A1, cat_name: 'A1', page_id: 0, parent_cat_id: f.A, level: 3, s_number: 1 },
    { cat_id: 0, cat_name: 'In A1', page_id: f.pageA1, parent_cat_id: f.A1, level: 4, s_number: 1 },
    { cat_id: f.A1a, cat_name: 'A1a', page_id: 0, parent_cat_id: f.A1, level: 4, s_number: 2 },
    { cat_id: f.B, cat_name: 'B', page_id: 0, parent_cat_id: 0, level: 2, s_number: 2 },
    { cat_id: 0, cat_name: 'In B', page_id: f.pageB, parent_cat_id: f.B, level: 3, s_number: 1 },
    { cat_id: f.C, cat_name: 'C', page_id: 0, parent_cat_id: 0, level: 2, s_number: 3 },
    { cat_id: 0, cat_name: 'Root', page_id: f.rootPage, parent_cat_id: 0, level: 2, s_number: 4 },
  ];
  return nodes.map((n) => {
    const id = n.cat_id || n.page_id!;
    return { ...n, ...overrides[id], page_cat_id: overrides[id]?.parent_cat_id ?? n.parent_cat_id };
  });
}

describe('batUpdate', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
    // Bring the stored order in line with the client's positions, so later saves are pure diffs.
    await as(suite.owner).ok('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(flatTree(f)),
    });
  });

  test('anonymous → 10102; nothing changes', async () => {
    const before = await treeState(f.itemId);
    const answer = await suite.server.api.fail('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(flatTree(f, { [f.C]: { s_number: 9 } })),
    });
    expect(answer.error_code).toBe(10102);
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('bad input → 10101 and nothing changes: no item, no cats, broken JSON, not a list, operator objects', async () => {
    const before = await treeState(f.itemId);
    const cases: Record<string, unknown>[] = [
      { cats: JSON.stringify(flatTree(f)) },
      { item_id: f.itemId },
      { item_id: f.itemId, cats: '[{"cat_id": 1,' },
      { item_id: f.itemId, cats: '{"cat_id": 1}' },
      {
        item_id: f.itemId,
        cats: JSON.stringify([{ cat_id: { $gt: 0 }, parent_cat_id: 0, level: 2, s_number: 1 }]),
      },
    ];
    for (const params of cases)
      expect((await as(suite.owner).fail('catalog/batUpdate', params as never)).error_code).toBe(
        10101,
      );
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('read-only members and strangers → 10103; nothing changes', async () => {
    const before = await treeState(f.itemId);
    const cats = JSON.stringify(flatTree(f, { [f.C]: { s_number: 0 } }));
    expect(
      (await as(suite.reader).fail('catalog/batUpdate', { item_id: f.itemId, cats })).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.stranger).fail('catalog/batUpdate', { item_id: f.itemId, cats })).error_code,
    ).toBe(10103);
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('a cyclic tree is refused and nothing changes — not even the valid parts of the request', async () => {
    const before = await treeState(f.itemId);
    // C and B swap order (valid), but A goes under its own grandchild A1a (a cycle).
    const cats = flatTree(f, {
      [f.C]: { s_number: 1 },
      [f.B]: { s_number: 3 },
      [f.A]: { parent_cat_id: f.A1a, level: 5 },
    });
    const answer = await as(suite.owner).fail('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(cats),
    });
    expect(answer.error_code).toBe(10101);
    expect(answer.error_message).toMatch(/cycle/);
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('a tree deeper than three levels is refused and nothing changes', async () => {
    const before = await treeState(f.itemId);
    const cats = flatTree(f, {
      [f.C]: { parent_cat_id: f.A1a, level: 5, s_number: 1 },
      [f.pageB]: { parent_cat_id: f.C, s_number: 7 },
    });
    const answer = await as(suite.owner).fail('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(cats),
    });
    expect(answer.error_code).toBe(10101);
    expect(answer.error_message).toMatch(/at most 3 levels/);
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('a page dropped inside another page is refused and nothing changes', async () => {
    const before = await treeState(f.itemId);
    // The web client gives children of a page node parent 0 (pages have no cat_id) and level + 1.
    const cats = flatTree(f, { [f.pageB]: { parent_cat_id: 0, level: 3, s_number: 1 } });
    const answer = await as(suite.owner).fail('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(cats),
    });
    expect(answer.error_code).toBe(10101);
    expect(answer.error_message).toMatch(/inside a page/);
    expect(await treeState(f.itemId)).toEqual(before);
  });

  test('ids of another item (catalog, page or parent) are refused and neither item changes', async () => {
    const other = await fixture();
    const before = [await treeState(f.itemId), await treeState(other.itemId)];
    const attempts = [
      [
        ...flatTree(f),
        {
          cat_id: other.B,
          cat_name: 'stolen',
          page_id: 0,
          parent_cat_id: 0,
          level: 2,
          s_number: 9,
        },
      ],
      [
        ...flatTree(f),
        {
          cat_id: 0,
          cat_name: 'stolen',
          page_id: other.pageB,
          parent_cat_id: f.C,
          level: 3,
          s_number: 1,
        },
      ],
      flatTree(f, { [f.pageB]: { parent_cat_id: other.C, level: 3 } }),
    ];
    for (const cats of attempts) {
      const answer = await as(suite.owner).fail('catalog/batUpdate', {
        item_id: f.itemId,
        cats: JSON.stringify(cats),
      });
      expect(answer.error_code).toBe(10101);
    }
    expect([await treeState(f.itemId), await treeState(other.itemId)]).toEqual(before);
  });

  test('a valid drag re-parents and re-orders atomically, rewriting only the rows that moved, and logs the drag', async () => {
    const before = await treeState(f.itemId);
    // Drag the root page into C, and C above B.
    const cats = flatTree(f, {
      [f.rootPage]: { parent_cat_id: f.C, level: 3, s_number: 1 },
      [f.C]: { s_number: 2 },
      [f.B]: { s_number: 3 },
    });
    // Form posts from ShowDoc clients may arrive HTML-escaped.
    const escaped = JSON.stringify(cats).replace(/"/g, '&quot;');
    await as(suite.editor).ok('catalog/batUpdate', {
      item_id: f.itemId,
      cats: escaped,
      dragged_id: f.rootPage,
      dragged_title: 'Root',
      dragged_type: 'page',
    });
    const after = await treeState(f.itemId);

    const changedCatalogs = after.catalogs
      .filter((c, i) => JSON.stringify(c) !== JSON.stringify(before.catalogs[i]))
      .map((c) => c.cat_id);
    expect(changedCatalogs.sort()).toEqual([f.B, f.C].sort());
    expect(after.catalogs.find((c) => c.cat_id === f.C)).toMatchObject({
      s_number: 2,
      parent_cat_id: 0,
      level: 2,
    });
    expect(after.catalogs.find((c) => c.cat_id === f.B)).toMatchObject({ s_number: 3 });
    const changedPages = after.pages
      .filter((p, i) => JSON.stringify(p) !== JSON.stringify(before.pages[i]))
      .map((p) => p.page_id);
    expect(changedPages).toEqual([f.rootPage]);
    expect(after.pages.find((p) => p.page_id === f.rootPage)).toMatchObject({
      cat_id: f.C,
      s_number: 1,
      page_title: 'Root',
    });

    const log = await ItemChangeLog.findOne({ item_id: f.itemId, op_action_type: 'drag' })
      .sort({ id: -1 })
      .lean();
    expect(log).toMatchObject({
      uid: suite.editor.uid,
      op_object_type: 'tree',
      op_object_id: 0,
      op_object_name: 'dragged page «Root»',
    });
  });

  test('moving a subtree up recomputes the levels below it (JSON body)', async () => {
    const cats = flatTree(f, {
      [f.A1]: { parent_cat_id: 0, level: 2, s_number: 5 },
      [f.pageA1]: { level: 3 },
      [f.A1a]: { level: 3 },
    });
    await as(suite.owner).ok(
      'catalog/batUpdate',
      { item_id: f.itemId, cats: cats as never },
      { json: true },
    );
    const after = await treeState(f.itemId);
    expect(after.catalogs.find((c) => c.cat_id === f.A1)).toMatchObject({
      parent_cat_id: 0,
      level: 2,
      s_number: 5,
    });
    expect(after.catalogs.find((c) => c.cat_id === f.A1a)).toMatchObject({
      parent_cat_id: f.A1,
      level: 3,
    });
    const log = await ItemChangeLog.findOne({ item_id: f.itemId, op_action_type: 'drag' })
      .sort({ id: -1 })
      .lean();
    expect(log?.op_object_name).toBe('catalog tree');
  });

  test('a restricted editor may rearrange inside their catalog, but not pull things out of it or touch others', async () => {
    // The restricted member's client only holds catalog A's subtree.
    const own = flatTree(f).filter((n) =>
      [f.A, f.A1, f.A1a, f.pageA1].includes((n.cat_id || n.page_id)!),
    );
    const before = await treeState(f.itemId);
    const outward = own.map((n) =>
      n.cat_id === f.A1a ? { ...n, parent_cat_id: 0, level: 2, s_number: 2 } : n,
    );
    expect(
      (
        await as(restricted).fail('catalog/batUpdate', {
          item_id: f.itemId,
          cats: JSON.stringify(outward),
        })
      ).error_code,
    ).toBe(10103);
    const others = [
      { cat_id: f.B, cat_name: 'B', page_id: 0, parent_cat_id: 0, level: 2, s_number: 1 },
    ];
    expect(
      (
        await as(restricted).fail('catalog/batUpdate', {
          item_id: f.itemId,
          cats: JSON.stringify(others),
        })
      ).error_code,
    ).toBe(10103);
    const anchor = [
      { cat_id: f.C, cat_name: 'C', page_id: 0, parent_cat_id: 0, level: 2, s_number: 1 },
      { cat_id: f.A, cat_name: 'A', page_id: 0, parent_cat_id: f.C, level: 3, s_number: 1 },
    ];
    expect(
      (
        await as(restricted).fail('catalog/batUpdate', {
          item_id: f.itemId,
          cats: JSON.stringify(anchor),
        })
      ).error_code,
    ).toBeGreaterThan(10100);
    expect(await treeState(f.itemId)).toEqual(before);

    const inward = own.map((n) =>
      n.page_id === f.pageA1 ? { ...n, parent_cat_id: f.A1a, level: 5, s_number: 1 } : n,
    );
    await as(restricted).ok('catalog/batUpdate', {
      item_id: f.itemId,
      cats: JSON.stringify(inward),
    });
    expect(await Page.findOne({ page_id: f.pageA1 }).lean()).toMatchObject({ cat_id: f.A1a });
  });
});

describe('copy', () => {
  let f: Fixture;
  let target: number;
  beforeEach(async () => {
    f = await fixture();
    ({ item_id: target } = await makeItem(suite.owner, { item_name: 'Target' }));
    await addMember(target, suite.editor, 1);
  });

  test('anonymous → 10102; missing or unknown cat_id → 10101; nothing written', async () => {
    const before = [await treeState(f.itemId), await treeState(target)];
    expect(
      (await suite.server.api.fail('catalog/copy', { cat_id: f.B, to_item_id: target })).error_code,
    ).toBe(10102);
    expect((await as(suite.owner).fail('catalog/copy', { to_item_id: target })).error_code).toBe(
      10101,
    );
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: 987_654, to_item_id: target }))
        .error_code,
    ).toBe(10101);
    expect([await treeState(f.itemId), await treeState(target)]).toEqual(before);
  });

  test('refused into an item the user cannot edit, and from one they cannot edit (10103); nothing written', async () => {
    const { item_id: foreign } = await makeItem(suite.stranger, { item_name: 'Not yours' });
    await addMember(foreign, suite.reader, 0);
    const before = [await treeState(f.itemId), await treeState(foreign)];
    expect(
      (
        await as(suite.editor).fail('catalog/copy', {
          cat_id: f.B,
          to_item_id: foreign,
          new_p_cat_id: '/',
        })
      ).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.reader).fail('catalog/copy', { cat_id: f.B, to_item_id: foreign }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(suite.stranger).fail('catalog/copy', { cat_id: f.B, to_item_id: foreign }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(suite.editor).fail('catalog/copy', { cat_id: f.B, to_item_id: foreign, is_del: 1 }))
        .error_code,
    ).toBe(10103);
    expect([await treeState(f.itemId), await treeState(foreign)]).toEqual(before);
  });

  test('bad targets → 10101: a parent of another item, into itself, or deeper than three levels', async () => {
    const before = [await treeState(f.itemId), await treeState(target)];
    expect(
      (
        await as(suite.owner).fail('catalog/copy', {
          cat_id: f.B,
          to_item_id: target,
          new_p_cat_id: f.C,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: f.A, new_p_cat_id: f.A1 })).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: f.A, new_p_cat_id: f.A, is_del: 1 }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('catalog/copy', { cat_id: f.A, new_p_cat_id: f.C }))
        .error_message,
    ).toMatch(/at most 3 levels/);
    expect([await treeState(f.itemId), await treeState(target)]).toEqual(before);
  });

  test("copying to another item's top level ('/') copies catalogs and pages, keeps the source, and answers the new root row", async () => {
    const before = await treeState(f.itemId);
    const row = await as(suite.editor).ok<Record<string, string>>('catalog/copy', {
      cat_id: f.A,
      to_item_id: target,
      new_p_cat_id: '/',
      is_del: 0,
    });
    expect(row).toMatchObject({
      cat_name: 'A',
      item_id: String(target),
      parent_cat_id: '0',
      level: '2',
    });
    expect(await treeState(f.itemId)).toEqual(before);

    const copied = await treeState(target);
    const byName = new Map(copied.catalogs.map((c) => [c.cat_name, c]));
    expect([...byName.keys()].sort()).toEqual(['A', 'A1', 'A1a']);
    expect(byName.get('A1')).toMatchObject({ parent_cat_id: Number(row.cat_id), level: 3 });
    expect(byName.get('A1a')).toMatchObject({ parent_cat_id: byName.get('A1')!.cat_id, level: 4 });
    const page = await Page.findOne({ item_id: target, page_title: 'In A1' }).lean();
    expect(page).toMatchObject({
      cat_id: byName.get('A1')!.cat_id,
      author_uid: suite.editor.uid,
      is_del: 0,
    });
    expect(page!.page_id).not.toBe(f.pageA1);
  });

  test('copying into a catalog of the same item nests the copy there', async () => {
    const row = await as(suite.owner).ok<Record<string, string>>('catalog/copy', {
      cat_id: f.B,
      new_p_cat_id: f.C,
    });
    expect(row).toMatchObject({
      cat_name: 'B',
      parent_cat_id: String(f.C),
      level: '3',
      item_id: String(f.itemId),
    });
    expect(await Page.countDocuments({ item_id: f.itemId, page_title: 'In B', is_del: 0 })).toBe(2);
  });

  test('moving inside an item re-parents in place: same ids, pages untouched', async () => {
    const row = await as(suite.owner).ok<Record<string, string>>('catalog/copy', {
      cat_id: f.B,
      new_p_cat_id: f.C,
      is_del: 1,
    });
    expect(row).toMatchObject({ cat_id: String(f.B), parent_cat_id: String(f.C), level: '3' });
    expect(await Page.findOne({ page_id: f.pageB }).lean()).toMatchObject({
      cat_id: f.B,
      is_del: 0,
    });
  });

  test('moving to another item copies there, removes the source subtree and puts its pages in the recycle bin', async () => {
    const row = await as(suite.owner).ok<Record<string, string>>('catalog/copy', {
      cat_id: f.A1,
      to_item_id: target,
      new_p_cat_id: 0,
      is_del: 1,
    });
    expect(row).toMatchObject({ cat_name: 'A1', item_id: String(target), level: '2' });
    expect(await Catalog.countDocuments({ cat_id: { $in: [f.A1, f.A1a] } })).toBe(0);
    expect(await Page.findOne({ page_id: f.pageA1 }).lean()).toMatchObject({ is_del: 1 });
    expect(await Recycle.countDocuments({ item_id: f.itemId, page_id: f.pageA1 })).toBe(1);
    expect(await Page.countDocuments({ item_id: target, page_title: 'In A1', is_del: 0 })).toBe(1);
  });

  test('a copied draft stays a draft of its own author', async () => {
    const draft = await makePage(suite.editor, f.itemId, {
      title: 'Unfinished',
      catId: f.B,
      isDraft: 1,
    });
    await as(suite.owner).ok('catalog/copy', { cat_id: f.B, to_item_id: target });
    const copy = await Page.findOne({ item_id: target, page_title: 'Unfinished' }).lean();
    expect(copy).toMatchObject({ is_draft: 1, author_uid: suite.editor.uid });
    expect(copy!.page_id).not.toBe(draft.page_id);
  });

  test('a restricted editor may copy from inside their catalog but not out of it into the top level, nor move their catalog', async () => {
    const before = await treeState(f.itemId);
    expect(
      (await as(restricted).fail('catalog/copy', { cat_id: f.B, new_p_cat_id: f.A })).error_code,
    ).toBe(10103);
    expect(
      (await as(restricted).fail('catalog/copy', { cat_id: f.A1a, new_p_cat_id: 0 })).error_code,
    ).toBe(10103);
    expect(
      (await as(restricted).fail('catalog/copy', { cat_id: f.A, new_p_cat_id: 0, is_del: 1 }))
        .error_code,
    ).toBe(10103);
    expect(await treeState(f.itemId)).toEqual(before);
    const row = await as(restricted).ok<Record<string, string>>('catalog/copy', {
      cat_id: f.A1a,
      new_p_cat_id: f.A,
    });
    expect(row).toMatchObject({ parent_cat_id: String(f.A), level: '3' });
  });
});
