/**
 * The catalog manager in Chromium (issue "Web: editing", part D; spec 001 §2, §4, §5, §8, §9):
 * dragging catalogs and pages in the tree (saved as one batUpdate, checked in the database and
 * after a reload), drops the server refuses (the tree returns to the server's state), no drop
 * inside a page, no dragging while filtering or for read-only members, adding / renaming /
 * deleting catalogs, copying and moving one to another item, the "sort pages" dialog, and the
 * context menu that stays 5 px inside the screen. No test may leave a console error behind.
 */
import { describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { Recycle } from '../../models/pages/schemas/recycle';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, dragOnto, openPage, screenshot } from './helpers';
import { eventually, loginAs, shot } from './readerFixture';
import { forgetCachedReads } from '../../models/platform';

const suite = browserSuite();

// ── set-up ──────────────────────────────────────────────────────────────────────────────────────

interface Fixture {
  owner: TestUser;
  editor: TestUser;
  viewer: TestUser;
  itemId: number;
}

/** An item with an editor (member 1) and a read-only member (0). */
async function makeItemWithMembers(name: string): Promise<Fixture> {
  const owner = await makeUser({ name: 'Owner' });
  const editor = await makeUser({ name: 'Editor' });
  const viewer = await makeUser({ name: 'Viewer' });
  const { item_id: itemId } = await makeItem(owner, { item_name: name });
  await addMember(itemId, editor, 1);
  await addMember(itemId, viewer, 0);
  return { owner, editor, viewer, itemId };
}

async function browserAs(
  user: TestUser,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const tp = await openPage(suite.browser, { viewport });
  suite.opened.push(tp);
  await loginAs(tp, user);
  return tp.page;
}

// ── the tree on screen ──────────────────────────────────────────────────────────────────────────

const node = (page: Page, key: string) =>
  page.locator(`[data-testid="catalog-node"][data-key="${key}"]`);

/** The tree row (antd renders rows flat, so a row holds exactly one node). */
const row = (page: Page, key: string) =>
  page.locator('.ant-tree-treenode', { has: node(page, key) });

/** A menu entry by its label (antd prefixes the icon's name). */
const menuItem = (page: Page, label: string) =>
  page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${label}$`) });

async function openManager(page: Page, itemId: number): Promise<void> {
  await page.goto(`${suite.server.url}/catalog/${itemId}`);
  await page.locator('[data-testid="catalog-manager"][data-busy="false"]').waitFor();
}

/** Waits until no change is being saved or reloaded. */
async function settled(page: Page): Promise<void> {
  await page.locator('[data-testid="catalog-manager"][data-busy="false"]').waitFor();
}

/** The rows as "key@depth" in screen order (depth 0 = top level). */
async function rows(page: Page): Promise<string[]> {
  // (The tree also renders a hidden row of its own for measuring: it holds no node.)
  return page.locator('.quire-catalog-tree .ant-tree-treenode').evaluateAll((list) =>
    list.flatMap((element) => {
      const key = element.querySelector('[data-testid="catalog-node"]')?.getAttribute('data-key');
      return key ? [`${key}@${element.querySelectorAll('.ant-tree-indent-unit').length}`] : [];
    }),
  );
}

async function fold(page: Page, key: string): Promise<void> {
  const target = row(page, key);
  if ((await target.getAttribute('aria-expanded')) !== 'true') return;
  await target.locator('.ant-tree-switcher').click();
  await page.waitForFunction(
    (k) =>
      document
        .querySelector(`[data-key="${k}"]`)
        ?.closest('.ant-tree-treenode')
        ?.getAttribute('aria-expanded') === 'false',
    key,
  );
}

/**
 * Drags tree node `from` onto node `to` with real mouse moves (HTML5 drag and drop). antd's tree
 * reads the horizontal offset from where the drag started: straight down drops after the target
 * at its level; well to the right drops inside it (a catalog that is folded or empty).
 */
async function dragInTree(
  page: Page,
  from: string,
  to: string,
  where: 'after' | 'inside',
  release = true,
): Promise<void> {
  const source = await node(page, from).boundingBox();
  const target = await node(page, to).boundingBox();
  if (!source || !target) throw new Error('drag: node not visible');
  const x = source.x + 12;
  const y = source.y + source.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 4, y + 4, { steps: 2 });
  await page.mouse.move(where === 'inside' ? x + 64 : x, target.y + target.height * 0.75, {
    steps: 10,
  });
  if (release) await page.mouse.up();
}

// ── the database ────────────────────────────────────────────────────────────────────────────────

/** The item's catalogs as "name<parent name|/>@level" in tree order (s_number, cat_id). */
async function dbCatalogs(itemId: number): Promise<string[]> {
  const all = await Catalog.find({ item_id: itemId }).lean();
  const name = new Map(all.map((c) => [c.cat_id, c.cat_name]));
  return all
    .sort(
      (a, b) => a.parent_cat_id - b.parent_cat_id || a.s_number - b.s_number || a.cat_id - b.cat_id,
    )
    .map((c) => `${c.cat_name}<${name.get(c.parent_cat_id) ?? '/'}@${c.level}`);
}

async function dbSnapshot(itemId: number): Promise<unknown> {
  const catalogs = await Catalog.find({ item_id: itemId }, { _id: 0 }).sort({ cat_id: 1 }).lean();
  const pages = await PageModel.find(
    { item_id: itemId },
    { _id: 0, page_id: 1, cat_id: 1, s_number: 1, is_del: 1 },
  )
    .sort({ page_id: 1 })
    .lean();
  return { catalogs, pages };
}

async function pageCatalog(pageId: number): Promise<number | undefined> {
  return (await PageModel.findOne({ page_id: pageId }).lean())?.cat_id;
}

/** Waits until the element stops moving (a dialog's opening animation is over). */
async function motionless(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  let last = JSON.stringify(await target.boundingBox());
  for (;;) {
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const now = JSON.stringify(await target.boundingBox());
    if (now === last) return;
    last = now;
  }
}

/** The alert the API client shows for a refused call; returns its text and closes it. */
async function takeAlert(page: Page): Promise<string> {
  const content = page.locator('.ant-modal-confirm-content');
  await content.waitFor();
  const text = (await content.textContent()) ?? '';
  await page.locator('.ant-modal-confirm-btns').getByRole('button').click();
  await content.waitFor({ state: 'detached' });
  return text;
}

// ── tests ───────────────────────────────────────────────────────────────────────────────────────

describe('dragging', () => {
  test('re-orders and re-parents catalogs and pages; the server keeps it across a reload', async () => {
    const fx = await makeItemWithMembers('Drag item');
    const a = await makeCatalog(fx.owner, fx.itemId, 'Alpha');
    const b = await makeCatalog(fx.owner, fx.itemId, 'Bravo');
    const c = await makeCatalog(fx.owner, fx.itemId, 'Charlie');
    const inA = await makePage(fx.owner, fx.itemId, { title: 'In alpha', catId: a });
    await makePage(fx.owner, fx.itemId, { title: 'In charlie', catId: c });

    const page = await browserAs(fx.editor);
    // The reader's "new catalog" button leads here.
    await page.goto(`${suite.server.url}/${fx.itemId}`);
    await page.getByTestId('new-catalog').click();
    await page.waitForURL(`${suite.server.url}/catalog/${fx.itemId}`);
    await settled(page);
    await page.getByRole('heading', { name: 'Catalogs of Drag item' }).waitFor();
    expect(await rows(page)).toEqual([
      `cat:${a}@0`,
      `page:${inA.page_id}@1`,
      `cat:${b}@0`,
      `cat:${c}@0`,
      expect.stringMatching(/^page:\d+@1$/),
    ]);

    // Charlie after Alpha (folded, so the drop lands beside it).
    await fold(page, `cat:${a}`);
    await fold(page, `cat:${c}`);
    await dragInTree(page, `cat:${c}`, `cat:${a}`, 'after');
    await eventually(() => dbCatalogs(fx.itemId), ['Alpha</@2', 'Charlie</@2', 'Bravo</@2']);
    await settled(page);
    expect((await rows(page)).filter((r) => r.startsWith('cat:'))).toEqual([
      `cat:${a}@0`,
      `cat:${c}@0`,
      `cat:${b}@0`,
    ]);

    // Bravo into Alpha: it becomes a level-3 catalog.
    await dragInTree(page, `cat:${b}`, `cat:${a}`, 'inside');
    await eventually(() => dbCatalogs(fx.itemId), ['Alpha</@2', 'Charlie</@2', 'Bravo<Alpha@3']);
    await settled(page);

    // A page into another catalog.
    await page.reload();
    await settled(page);
    await fold(page, `cat:${c}`);
    await dragInTree(page, `page:${inA.page_id}`, `cat:${c}`, 'inside');
    await eventually(() => pageCatalog(inA.page_id), c);
    await settled(page);

    await page.reload();
    await settled(page);
    const after = await rows(page);
    expect(after.indexOf(`cat:${b}@1`)).toBe(after.indexOf(`cat:${a}@0`) + 1);
    expect(after.indexOf(`page:${inA.page_id}@1`)).toBe(after.indexOf(`cat:${c}@0`) + 1);
    await screenshot(page, 'catalog-manager-dragged');
  });

  test('a drop the server refuses (too deep) changes nothing and the tree returns', async () => {
    const fx = await makeItemWithMembers('Deep item');
    const top = await makeCatalog(fx.owner, fx.itemId, 'Top');
    const middle = await makeCatalog(fx.owner, fx.itemId, 'Middle', top);
    const bottom = await makeCatalog(fx.owner, fx.itemId, 'Bottom', middle);
    const outer = await makeCatalog(fx.owner, fx.itemId, 'Outer');
    const inner = await makeCatalog(fx.owner, fx.itemId, 'Inner', outer);
    const before = await dbSnapshot(fx.itemId);

    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);
    const shown = await rows(page);
    // Outer (with its child) into Bottom would make four levels; the server allows three.
    await fold(page, `cat:${outer}`);
    await dragInTree(page, `cat:${outer}`, `cat:${bottom}`, 'inside');
    expect(await takeAlert(page)).toMatch(/at most 3 levels/);
    // Back where the server has it (Outer still folded).
    await eventually(
      () => rows(page),
      shown.filter((r) => !r.startsWith(`cat:${inner}@`)),
    );
    expect(await dbSnapshot(fx.itemId)).toEqual(before);
    await page.reload();
    await settled(page);
    expect(await rows(page)).toEqual(shown);
  });

  test('a drop after the edit right was taken away is refused and the tree turns read-only', async () => {
    const fx = await makeItemWithMembers('Revoked item');
    const one = await makeCatalog(fx.owner, fx.itemId, 'One');
    const two = await makeCatalog(fx.owner, fx.itemId, 'Two');
    const before = await dbSnapshot(fx.itemId);

    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);
    await ItemMember.updateOne(
      { item_id: fx.itemId, uid: fx.editor.uid },
      { $set: { member_group_id: 0 } },
    );
    forgetCachedReads();
    await dragInTree(page, `cat:${one}`, `cat:${two}`, 'after');
    expect(await takeAlert(page)).not.toBe('');
    await page.getByTestId('catalog-read-only').waitFor();
    await settled(page);
    expect(await rows(page)).toEqual([`cat:${one}@0`, `cat:${two}@0`]);
    expect(await dbSnapshot(fx.itemId)).toEqual(before);
  });

  test('a page cannot be dropped inside another page', async () => {
    const fx = await makeItemWithMembers('Pages item');
    const cat = await makeCatalog(fx.owner, fx.itemId, 'Box');
    const first = await makePage(fx.owner, fx.itemId, { title: 'First', catId: cat });
    const second = await makePage(fx.owner, fx.itemId, { title: 'Second', catId: cat });
    const root = await makePage(fx.owner, fx.itemId, { title: 'Root page' });

    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);
    // Held well to the right over a page: the tree offers no "inside" (that would mark the row
    // drag-over); it can only go beside the page.
    await dragInTree(page, `page:${root.page_id}`, `page:${second.page_id}`, 'inside', false);
    const target = row(page, `page:${second.page_id}`);
    await page
      .locator('.ant-tree-treenode.drag-over-gap-bottom', {
        has: node(page, `page:${second.page_id}`),
      })
      .waitFor();
    expect(await target.getAttribute('class')).not.toMatch(/(^|\s)drag-over(\s|$)/);
    await page.mouse.up();

    // Dropped beside it: in the same catalog, after it, still a page among pages.
    await eventually(() => pageCatalog(root.page_id), cat);
    await settled(page);
    expect(await rows(page)).toEqual([
      `cat:${cat}@0`,
      `page:${first.page_id}@1`,
      `page:${second.page_id}@1`,
      `page:${root.page_id}@1`,
    ]);
  });

  test('no dragging while a filter is set, nor for a read-only member', async () => {
    const fx = await makeItemWithMembers('Filter item');
    const red = await makeCatalog(fx.owner, fx.itemId, 'Red');
    const green = await makeCatalog(fx.owner, fx.itemId, 'Green');
    await makePage(fx.owner, fx.itemId, { title: 'Ruby', catId: red });
    await makePage(fx.owner, fx.itemId, { title: 'Emerald', catId: green });
    const before = await dbSnapshot(fx.itemId);
    const draggableRows = (page: Page) =>
      page.locator('.quire-catalog-tree .ant-tree-treenode[draggable="true"]').count();

    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);
    expect(await draggableRows(page)).toBe(4);
    await page.getByPlaceholder('Filter catalogs and pages').fill('ruby');
    await page.getByText('Dragging is off while a filter is set').waitFor();
    expect(await rows(page)).toEqual([`cat:${red}@0`, expect.stringMatching(/^page:\d+@1$/)]);
    expect(await draggableRows(page)).toBe(0);
    await page.getByPlaceholder('Filter catalogs and pages').fill('');
    await page.getByText('Drag catalogs and pages to reorder').waitFor();
    expect(await draggableRows(page)).toBe(4);

    const reader = await browserAs(fx.viewer);
    await openManager(reader, fx.itemId);
    await reader.getByTestId('catalog-read-only').waitFor();
    expect(await draggableRows(reader)).toBe(0);
    expect(await reader.getByTestId('catalog-add').count()).toBe(0);
    expect(await reader.getByTestId('node-edit').count()).toBe(0);
    await fold(reader, `cat:${red}`);
    await dragInTree(reader, `cat:${red}`, `cat:${green}`, 'after');
    await node(reader, `cat:${green}`).click({ button: 'right' });
    expect(await reader.getByTestId('catalog-context-menu').count()).toBe(0);
    expect(await dbSnapshot(fx.itemId)).toEqual(before);
  });
});

describe('catalog actions', () => {
  test('add, add below, rename, re-parent and delete (with confirmation) a catalog', async () => {
    const fx = await makeItemWithMembers('Actions item');
    const home = await makeCatalog(fx.owner, fx.itemId, 'Home');
    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);

    await page.getByTestId('catalog-add').click();
    let dialog = page.getByRole('dialog', { name: 'New catalog' });
    await dialog.getByLabel('Catalog name').fill('Fresh');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(() => dbCatalogs(fx.itemId), ['Home</@2', 'Fresh</@2']);
    const fresh = (await Catalog.findOne({ item_id: fx.itemId, cat_name: 'Fresh' }).lean())!;
    await node(page, `cat:${fresh.cat_id}`).waitFor();

    // A sub-catalog from the context menu.
    await node(page, `cat:${fresh.cat_id}`).click({ button: 'right' });
    await menuItem(page, 'New sub-catalog').click();
    dialog = page.getByRole('dialog', { name: 'New catalog' });
    await dialog.getByLabel('Catalog name').fill('Leaf');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dbCatalogs(fx.itemId), ['Home</@2', 'Fresh</@2', 'Leaf<Fresh@3']);

    // Rename Fresh and put it under Home (Leaf moves along, one level down).
    await row(page, `cat:${fresh.cat_id}`).hover();
    await row(page, `cat:${fresh.cat_id}`).getByTestId('node-edit').click();
    dialog = page.getByRole('dialog', { name: 'Edit catalog' });
    await dialog.getByLabel('Catalog name').fill('Renamed');
    await dialog.getByLabel('Parent catalog').fill('Home');
    await page.getByTitle('Home', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await dialog.getByTitle('Home', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dbCatalogs(fx.itemId), ['Home</@2', 'Renamed<Home@3', 'Leaf<Renamed@4']);
    await settled(page);
    await node(page, `cat:${fresh.cat_id}`).getByText('Renamed').waitFor();

    // Delete Home: asked first; its pages go to the recycle bin.
    const kept = await makePage(fx.owner, fx.itemId, { title: 'Kept page', catId: home });
    await row(page, `cat:${home}`).hover();
    await row(page, `cat:${home}`).getByTestId('node-delete').click();
    const confirm = page.getByRole('dialog', { name: 'Delete the catalog "Home"?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await dbCatalogs(fx.itemId)).toHaveLength(3);
    await row(page, `cat:${home}`).hover();
    await row(page, `cat:${home}`).getByTestId('node-delete').click();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await eventually(() => dbCatalogs(fx.itemId), []);
    expect(await Recycle.countDocuments({ page_id: kept.page_id })).toBe(1);
    await page.getByText('No catalogs or pages yet').waitFor();
  });

  test('copy and move a catalog to the root of another item', async () => {
    const fx = await makeItemWithMembers('Source item');
    const { item_id: targetId } = await makeItem(fx.editor, { item_name: 'Destination' });
    const guide = await makeCatalog(fx.owner, fx.itemId, 'Guide');
    await makeCatalog(fx.owner, fx.itemId, 'Chapter', guide);
    await makePage(fx.owner, fx.itemId, { title: 'Guide page', catId: guide });
    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);

    async function copyTo(mode: 'Copy' | 'Move') {
      await node(page, `cat:${guide}`).click({ button: 'right' });
      await menuItem(page, 'Copy or move').click();
      const dialog = page.getByRole('dialog', { name: 'Copy or move "Guide"' });
      await dialog.getByRole('radio', { name: mode }).check();
      // The item list has loaded once the current item shows by name.
      await dialog.getByTitle('Source item', { exact: true }).waitFor();
      // Typed and chosen with Enter (the searchable select's keyboard path).
      await dialog.getByLabel('Target item').fill('Destination');
      await page.getByTitle('Destination', { exact: true }).waitFor();
      await page.keyboard.press('Enter');
      await dialog.getByTitle('Destination', { exact: true }).waitFor();
      // '/' (the top level) is the parent to start with.
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'detached' });
    }

    await copyTo('Copy');
    await eventually(() => dbCatalogs(targetId), ['Guide</@2', 'Chapter<Guide@3']);
    expect(await dbCatalogs(fx.itemId)).toEqual(['Guide</@2', 'Chapter<Guide@3']);
    const copied = await Catalog.findOne({ item_id: targetId, cat_name: 'Guide' }).lean();
    expect(
      await PageModel.countDocuments({ item_id: targetId, cat_id: copied!.cat_id, is_del: 0 }),
    ).toBe(1);

    await settled(page);
    await copyTo('Move');
    await eventually(() => dbCatalogs(fx.itemId), []);
    expect(await dbCatalogs(targetId)).toEqual([
      'Guide</@2',
      'Guide</@2',
      'Chapter<Guide@3',
      'Chapter<Guide@3',
    ]);
    await page.getByText('No catalogs or pages yet').waitFor();
  });
});

describe('sort pages', () => {
  test("the dialog re-orders a catalog's pages and the order persists", async () => {
    const fx = await makeItemWithMembers('Sort item');
    const cat = await makeCatalog(fx.owner, fx.itemId, 'Shelf');
    const p1 = await makePage(fx.owner, fx.itemId, { title: 'Page one', catId: cat });
    const p2 = await makePage(fx.owner, fx.itemId, { title: 'Page two', catId: cat });
    const p3 = await makePage(fx.owner, fx.itemId, { title: 'Page three', catId: cat });
    const order = async () =>
      (await PageModel.find({ cat_id: cat }).sort({ s_number: 1, page_id: 1 }).lean()).map(
        (p) => p.page_title,
      );
    const listed = (page: Page) =>
      page
        .getByTestId('sort-page-row')
        .evaluateAll((list) => list.map((e) => e.getAttribute('data-page-title')));

    const page = await browserAs(fx.editor);
    await openManager(page, fx.itemId);
    await row(page, `cat:${cat}`).hover();
    await row(page, `cat:${cat}`).getByTestId('node-sort').click();
    const dialog = page.getByRole('dialog', { name: 'Sort pages' });
    await dialog.getByTestId('sort-page-row').first().waitFor();
    expect(await listed(page)).toEqual(['Page one', 'Page two', 'Page three']);

    const rowOf = (title: string) => dialog.locator(`[data-page-title="${title}"]`);
    await motionless(page, rowOf('Page one'));
    await dragOnto(page, rowOf('Page three'), rowOf('Page one'));
    await eventually(order, ['Page three', 'Page one', 'Page two']);
    await dialog.locator('[data-saving="false"]').waitFor();
    await page.getByTestId('sort-pages-close').click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(
      () => rows(page),
      [`cat:${cat}@0`, `page:${p3.page_id}@1`, `page:${p1.page_id}@1`, `page:${p2.page_id}@1`],
    );

    await page.reload();
    await settled(page);
    await row(page, `cat:${cat}`).hover();
    await row(page, `cat:${cat}`).getByTestId('node-sort').click();
    await dialog.getByTestId('sort-page-row').first().waitFor();
    expect(await listed(page)).toEqual(['Page three', 'Page one', 'Page two']);
    await page.getByTestId('sort-pages-close').click();
  });
});

describe('context menu', () => {
  test('opens at the pointer, and near a screen edge stays 5 px inside it', async () => {
    const fx = await makeItemWithMembers('Menu item');
    const ids: number[] = [];
    for (let i = 1; i <= 18; i++) ids.push(await makeCatalog(fx.owner, fx.itemId, `Catalog ${i}`));
    await makePage(fx.owner, fx.itemId, { title: 'A page', catId: ids[0] });
    const viewport = { width: 520, height: 560 };
    const page = await browserAs(fx.editor, viewport);
    await openManager(page, fx.itemId);
    const menu = page.getByTestId('catalog-context-menu');
    const screen = () =>
      page.evaluate(() => ({
        width: document.documentElement.clientWidth,
        height: document.documentElement.clientHeight,
      }));

    // In the open: the menu's corner is the pointer.
    const first = (await node(page, `cat:${ids[0]}`).boundingBox())!;
    const at = { x: first.x + 30, y: first.y + first.height / 2 };
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await menu.waitFor();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('[data-testid="catalog-context-menu"]')!)
          .visibility === 'visible',
    );
    const box = (await menu.boundingBox())!;
    expect(Math.abs(box.x - at.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y - at.y)).toBeLessThanOrEqual(1);
    await menuItem(page, 'Edit catalog').waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // Near the bottom right corner: scroll the last catalog to the bottom edge, click at its end.
    const last = node(page, `cat:${ids[17]}`);
    const lastBox = (await last.boundingBox())!;
    const size = await screen();
    await page.evaluate(
      (dy) => window.scrollBy(0, dy),
      lastBox.y + lastBox.height - (size.height - 2),
    );
    const lastRowLocator = row(page, `cat:${ids[17]}`);
    const lastRow = (await lastRowLocator.boundingBox())!;
    expect(lastRow.y + lastRow.height).toBeGreaterThan(size.height - 12);
    // Through the locator: Playwright waits for the row to be stable and checks the right-click
    // lands on it (a raw mouse click at screen coordinates could hit the tree mid-re-render).
    await lastRowLocator.click({
      button: 'right',
      position: { x: lastRow.width - 6, y: Math.max(1, lastRow.height - 3) },
    });
    await menu.waitFor();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('[data-testid="catalog-context-menu"]')!)
          .visibility === 'visible',
    );
    const near = (await menu.boundingBox())!;
    expect(Math.round(near.x + near.width)).toBe(size.width - 5);
    expect(Math.round(near.y + near.height)).toBe(size.height - 5);
    // Not a full-page shot: resizing the window closes the menu.
    await shot(page, 'catalog-context-menu-edge');
    // A page's menu offers opening and editing it.
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.scrollTo(0, 0));
    const pageNode = page.locator('[data-testid="catalog-node"][data-kind="page"]').first();
    await pageNode.click({ button: 'right' });
    await menuItem(page, 'Open page').waitFor();
    await menuItem(page, 'Edit page').waitFor();
    await page.keyboard.press('Escape');
  });
});
