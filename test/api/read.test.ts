/**
 * read/* over real HTTP: read markers (one document per user and item, a batch of pages per
 * call), the pages flagged as changed since the last read in item/info's menu and counted on
 * read/itemCounts (the item list's count), "show changes" (read/changes) and "mark all as read". Only logged-in users who may
 * read a page get a marker for it, and a catalog-restricted member never learns that a page
 * outside their catalogs changed.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { PageRead } from '../../models/readMarkers/schemas';
import { addMember, makeItem } from '../helpers/factories';
import { apiSuite } from '../helpers/apiSuite';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite();
const { as } = suite;

interface MenuPageRow {
  page_id: string;
  read_changed?: number;
}
interface MenuCat {
  pages: MenuPageRow[];
  catalogs?: MenuCat[];
}
interface Info {
  changed_pages?: number;
  menu: { pages: MenuPageRow[]; catalogs: MenuCat[] };
}

function flagged(info: Info): string[] {
  const out: string[] = [];
  const visit = (pages: MenuPageRow[], cats: MenuCat[] = []) => {
    for (const p of pages) if (p.read_changed === 1) out.push(p.page_id);
    for (const c of cats) visit(c.pages, c.catalogs);
  };
  visit(info.menu.pages, info.menu.catalogs);
  return out.sort();
}

/** The item list's count for an item (undefined: none changed). */
async function itemCount(user: TestUser, itemId: number): Promise<number | undefined> {
  const rows =
    await as(user).ok<Array<{ item_id: number; changed_pages: number }>>('read/itemCounts');
  return rows.find((r) => r.item_id === itemId)?.changed_pages;
}

const info = (user: TestUser, itemId: number) =>
  as(user).ok<Info>('item/info', { item_id: itemId });

async function save(user: TestUser, itemId: number, pageId: number, content: string) {
  const page = await as(user).ok<{ page_title: string; cat_id: string }>('page/info', {
    page_id: pageId,
  });
  await as(user).ok('page/save', {
    page_id: pageId,
    item_id: itemId,
    page_title: page.page_title,
    cat_id: page.cat_id,
    page_content: content,
  });
}

/** A fresh item owned by `owner` with `reader` as a read-only member and two root pages. */
async function freshItem(owner: TestUser, reader: TestUser) {
  const { item_id: itemId } = await makeItem(owner, {});
  await addMember(itemId, reader, 0);
  const one = await makePage(owner, itemId, { content: '# One\n\nFirst paragraph.\n\nSecond.' });
  const two = await makePage(owner, itemId, { content: 'Two' });
  return { itemId, one: one.page_id, two: two.page_id };
}

let owner: TestUser;
let reader: TestUser;
beforeAll(async () => {
  [owner, reader] = await Promise.all([makeUser(), makeUser()]);
});

describe('recording reads', () => {
  test('a batch of pages is one document for the user and item, with a marker per page', async () => {
    const { itemId, one, two } = await freshItem(owner, reader);
    const answer = await as(reader).ok<{ marked: number[] }>('read/mark', {
      item_id: itemId,
      page_ids: `${one},${two}`,
    });
    expect(answer.marked).toEqual([one, two].sort((a, b) => a - b));
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: String(one) });
    const docs = await PageRead.find({ uid: reader.uid, item_id: itemId }).lean();
    expect(docs).toHaveLength(1);
    expect(Object.keys(docs[0].pages).sort()).toEqual([String(one), String(two)].sort());
  });

  test('anonymous readers get 10102 and nothing is stored', async () => {
    const { itemId, one } = await freshItem(owner, reader);
    const failure = await suite.server.api.fail('read/mark', {
      item_id: itemId,
      page_ids: String(one),
    });
    expect(failure.error_code).toBe(10102);
    expect(await PageRead.countDocuments({ item_id: itemId })).toBe(0);
  });

  test('a stranger to a private item is refused and gets no marker', async () => {
    const stranger = await makeUser();
    const { item_id: itemId } = await makeItem(owner, { password: 'secret' });
    const page = await makePage(owner, itemId);
    const failure = await as(stranger).fail('read/mark', {
      item_id: itemId,
      page_ids: String(page.page_id),
    });
    expect(failure.error_code).toBe(10303);
    expect(await PageRead.countDocuments({ item_id: itemId })).toBe(0);
  });

  test('no marker for pages one cannot read: other catalogs, others’ drafts, other items', async () => {
    const limited = await makeUser();
    const { item_id: itemId } = await makeItem(owner, {});
    const catA = await makeCatalog(owner, itemId, 'A');
    const catB = await makeCatalog(owner, itemId, 'B');
    await addMember(itemId, limited, 0, [catA]);
    const inA = await makePage(owner, itemId, { catId: catA });
    const inB = await makePage(owner, itemId, { catId: catB });
    const draft = await makePage(owner, itemId, { catId: catA, isDraft: 1 });
    const elsewhere = await makePage(owner, (await makeItem(owner, {})).item_id);
    const answer = await as(limited).ok<{ marked: number[] }>('read/mark', {
      item_id: itemId,
      page_ids: [inA, inB, draft, elsewhere].map((p) => p.page_id).join(','),
    });
    expect(answer.marked).toEqual([inA.page_id]);
    const doc = await PageRead.findOne({ uid: limited.uid, item_id: itemId }).lean();
    expect(Object.keys(doc!.pages)).toEqual([String(inA.page_id)]);
  });

  test('a malformed page list is refused with 10101 and stores nothing', async () => {
    const { itemId } = await freshItem(owner, reader);
    const failure = await as(reader).fail('read/mark', { item_id: itemId, page_ids: '1,x' });
    expect(failure.error_code).toBe(10101);
    expect(await PageRead.countDocuments({ uid: reader.uid, item_id: itemId })).toBe(0);
  });
});

describe('what changed since the last read', () => {
  test('item/info flags exactly the pages saved since they were read, and the item list counts them', async () => {
    const { itemId, one, two } = await freshItem(owner, reader);
    expect(flagged(await info(reader, itemId))).toEqual([]);
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    const before = await info(reader, itemId);
    expect(flagged(before)).toEqual([]);
    expect(before.changed_pages).toBe(0);

    await save(owner, itemId, one, '# One\n\nFirst paragraph, edited.\n\nSecond.');
    const after = await info(reader, itemId);
    expect(flagged(after)).toEqual([String(one)]);
    expect(after.changed_pages).toBe(1);
    expect(await itemCount(reader, itemId)).toBe(1);

    // The other viewer (who never read the item) has no flags and no count at all.
    expect(await itemCount(owner, itemId)).toBeUndefined();
  });

  test("one reader's flags never reach another reader who opens the same menu", async () => {
    const second = await makeUser();
    const { itemId, one, two } = await freshItem(owner, reader);
    await addMember(itemId, second, 0);
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    await as(second).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    await save(owner, itemId, one, 'changed for both');
    await as(second).ok('read/mark', { item_id: itemId, page_ids: String(one) });
    // Same viewer shape (plain members), so the same kept menu text: flags differ per reader.
    expect(flagged(await info(reader, itemId))).toEqual([String(one)]);
    expect(flagged(await info(second, itemId))).toEqual([]);
    expect(flagged(await info(reader, itemId))).toEqual([String(one)]);
  });

  test('a page created after the first read counts as changed', async () => {
    const { itemId, one } = await freshItem(owner, reader);
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: String(one) });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // created in a later second
    const added = await makePage(owner, itemId, { content: 'New' });
    expect(flagged(await info(reader, itemId))).toEqual([String(added.page_id)]);
  });

  test('pages whose current version the viewer saved themself are not news to them', async () => {
    const editor = await makeUser();
    const { itemId, one, two } = await freshItem(owner, reader);
    await addMember(itemId, editor, 1);
    await as(editor).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // saved in a later second
    // The editor's own save and own new page: nothing flagged for them, both for the reader.
    await save(editor, itemId, one, 'edited by the editor');
    const created = await makePage(editor, itemId, { content: 'Written by the editor' });
    expect(flagged(await info(editor, itemId))).toEqual([]);
    expect((await itemCount(editor, itemId)) ?? 0).toBe(0);
    expect(flagged(await info(reader, itemId))).toEqual(
      [String(one), String(created.page_id)].sort(),
    );
    // Someone else's later save of the same page is news to the editor again.
    await save(owner, itemId, one, 'edited by the owner');
    expect(flagged(await info(editor, itemId))).toEqual([String(one)]);
  });

  test('anonymous viewers get no flags and no count', async () => {
    const { itemId, one } = await freshItem(owner, reader);
    await save(owner, itemId, one, 'changed');
    const anonymous = await suite.server.api.ok<Info>('item/info', { item_id: itemId });
    expect(flagged(anonymous)).toEqual([]);
    expect(anonymous.changed_pages).toBeUndefined();
  });

  test('a restricted member never learns that a page outside their catalogs changed', async () => {
    const limited = await makeUser();
    const { item_id: itemId } = await makeItem(owner, {});
    const catA = await makeCatalog(owner, itemId, 'A');
    const catB = await makeCatalog(owner, itemId, 'B');
    await addMember(itemId, limited, 0, [catA]);
    const inA = await makePage(owner, itemId, { catId: catA });
    const inB = await makePage(owner, itemId, { catId: catB });
    await as(limited).ok('read/mark', { item_id: itemId, page_ids: String(inA.page_id) });
    await save(owner, itemId, inB.page_id, 'secret change');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await makePage(owner, itemId, { catId: catB, content: 'secret new page' });
    const seen = await info(limited, itemId);
    expect(flagged(seen)).toEqual([]);
    expect(seen.changed_pages).toBe(0);
    expect(await itemCount(limited, itemId)).toBeUndefined();
    const failure = await as(limited).fail('read/changes', { page_id: inB.page_id });
    expect(failure.error_code).toBe(10101);

    await save(owner, itemId, inA.page_id, 'visible change');
    expect(flagged(await info(limited, itemId))).toEqual([String(inA.page_id)]);
  });

  test('"mark all as read" clears every flag and the count', async () => {
    const { itemId, one, two } = await freshItem(owner, reader);
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: `${one},${two}` });
    await save(owner, itemId, one, 'changed one');
    await save(owner, itemId, two, 'changed two');
    expect(flagged(await info(reader, itemId))).toEqual([String(one), String(two)].sort());
    expect(await as(reader).ok('read/markAll', { item_id: itemId })).toEqual({ marked: 2 });
    const cleared = await info(reader, itemId);
    expect(flagged(cleared)).toEqual([]);
    expect(cleared.changed_pages).toBe(0);
    expect(await itemCount(reader, itemId)).toBeUndefined();
  });
});

describe('show changes', () => {
  interface Changes {
    changed: boolean;
    page_history_id: number;
    author_username: string;
    authors: Array<{ uid: number; username: string }>;
    blocks: Array<{ line: number; kind: string }>;
    removed: number;
  }

  test('answers the blocks changed since the version read, who changed them and the version to diff', async () => {
    const editor = await makeUser();
    const { itemId, one } = await freshItem(owner, reader);
    await addMember(itemId, editor, 1);
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: String(one) });
    const unchanged = await as(reader).ok<Changes>('read/changes', { page_id: one });
    expect(unchanged).toMatchObject({ changed: false, blocks: [] });

    await save(editor, itemId, one, '# One\n\nFirst paragraph, edited.\n\nSecond.\n\nThird, new.');
    const changes = await as(reader).ok<Changes>('read/changes', { page_id: one });
    expect(changes.changed).toBe(true);
    expect(changes.blocks).toEqual([
      { line: 2, kind: 'changed' },
      { line: 6, kind: 'added' },
    ]);
    expect(changes.removed).toBe(0);
    expect(changes.author_username).toBe(editor.username);
    expect(changes.authors.map((a) => a.username)).toEqual([editor.username]);
    const history = await as(reader).ok<Array<{ page_history_id: string; page_content: string }>>(
      'page/history',
      { page_id: one },
    );
    const base = history.find((h) => Number(h.page_history_id) === changes.page_history_id);
    expect(base?.page_content).toContain('First paragraph.');

    // Reading the new version ends it.
    await as(reader).ok('read/mark', { item_id: itemId, page_ids: String(one) });
    expect((await as(reader).ok<Changes>('read/changes', { page_id: one })).changed).toBe(false);
  });

  test('`since` compares with the version a reader had on screen (the live bar)', async () => {
    const { itemId, two } = await freshItem(owner, reader);
    const shown = await as(reader).ok<{ addtime_unix: number }>('page/info', { page_id: two });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await save(owner, itemId, two, 'Two\n\nMore.');
    const changes = await as(reader).ok<Changes>('read/changes', {
      page_id: two,
      since: shown.addtime_unix,
    });
    expect(changes.changed).toBe(true);
    expect(changes.blocks).toEqual([{ line: 2, kind: 'added' }]);
  });

  test('anonymous readers cannot ask', async () => {
    const { one } = await freshItem(owner, reader);
    expect((await suite.server.api.fail('read/changes', { page_id: one })).error_code).toBe(10102);
  });
});
