/**
 * Whiteboards in real browsers, two users on one board: a shape one draws appears on the other's
 * board without a reload, and undo is per user — A's undo takes back A's shape, never B's. A
 * read-only member watches live without tools, and two saved versions compare as pictures. No
 * console errors anywhere. (Convergence is waited for, never timed.)
 */
import { expect, test } from '@jest/globals';
import type { Page as BrowserPage } from 'playwright-core';
import { Page, PageHistory } from '../../models/pages';
import { addMember, makeItem } from '../helpers/factories';
import { updatePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';
import { eventually as settled } from '../helpers/embedded';

/** Waits (never timed as an assertion) for a state the other browser reaches over the network. */
const eventually = <T>(check: () => Promise<T>) => settled(check, { timeoutMs: 30_000 });

const suite = browserSuite();

/** The ids of the objects on the board this browser shows, in drawing order. */
async function objectIds(page: BrowserPage): Promise<string[]> {
  const value = await page.getByTestId('whiteboard').getAttribute('data-object-ids');
  return value ? value.split(',').filter(Boolean) : [];
}

/** Waits until the board is live and writable here. */
async function ready(page: BrowserPage): Promise<void> {
  await page.locator('[data-testid="whiteboard"][data-readonly="0"]').waitFor();
}

/** Places a rectangle with the toolbar's tool at (x, y) of the canvas. */
async function drawRectangle(page: BrowserPage, x: number, y: number): Promise<void> {
  await page.getByTestId('wb-tool-rect').click();
  await page
    .locator('[data-testid="whiteboard"] canvas.upper-canvas')
    .click({ position: { x, y } });
}

test('a shape drawn by one user appears on the other’s board, and undo is per user', async () => {
  const alice = await makeUser({ name: 'Alice' });
  const bob = await makeUser({ name: 'Bob' });
  const { item_id } = await makeItem(alice, { item_name: 'Design board', item_type: 5 });
  await addMember(item_id, bob, 1);

  const a = await suite.openAs(alice, `/${item_id}`);
  const b = await suite.openAs(bob, `/${item_id}`);
  await ready(a);
  await ready(b);

  await drawRectangle(a, 120, 120);
  const [aliceShape] = await eventually(async () => {
    const ids = await objectIds(a);
    expect(ids).toHaveLength(1);
    return ids;
  });
  // Bob sees it without reloading.
  await eventually(async () => expect(await objectIds(b)).toEqual([aliceShape]));
  // And each sees the other on the board.
  await b.getByTestId('wb-peer').filter({ hasText: 'Alice' }).first().waitFor();

  await drawRectangle(b, 420, 260);
  const bobShape = await eventually(async () => {
    const ids = await objectIds(b);
    expect(ids).toHaveLength(2);
    return ids.find((id) => id !== aliceShape)!;
  });
  await eventually(async () => expect(await objectIds(a)).toEqual([aliceShape, bobShape]));
  await screenshot(a, 'whiteboard-two-users');

  // Alice's undo takes back Alice's rectangle only, on both boards.
  await a.getByTestId('wb-undo').click();
  await eventually(async () => expect(await objectIds(a)).toEqual([bobShape]));
  await eventually(async () => expect(await objectIds(b)).toEqual([bobShape]));
  // Bob still has his own change to undo; Alice's redo brings hers back.
  expect(await b.getByTestId('wb-undo').isEnabled()).toBe(true);
  await a.getByTestId('wb-redo').click();
  await eventually(async () =>
    expect((await objectIds(b)).sort()).toEqual([aliceShape, bobShape].sort()),
  );
});

test('a read-only member watches the board live without tools; versions compare as two pictures', async () => {
  const owner = await makeUser({ name: 'Olga' });
  const viewer = await makeUser({ name: 'Victor' });
  const { item_id } = await makeItem(owner, { item_name: 'Roadmap board', item_type: 5 });
  await addMember(item_id, viewer, 0);
  const board = await Page.findOne({ item_id }).lean();
  const pageId = board!.page_id;
  const version = (left: number, text: string) =>
    JSON.stringify({
      version: '7.4.0',
      objects: [
        { type: 'Rect', id: 'r', left, top: 80, width: 120, height: 60, stroke: '#333', fill: '' },
        { type: 'IText', id: 't', left, top: 200, text, fontSize: 24 },
      ],
    });
  await updatePage(owner, board!, version(100, 'First plan'));
  await updatePage(owner, board!, version(300, 'Second plan'));

  const watcher = await suite.openAs(viewer, `/${item_id}`);
  await watcher.locator('[data-testid="whiteboard"][data-readonly="1"]').waitFor();
  await watcher.getByTestId('wb-readonly').waitFor();
  expect(await watcher.getByTestId('wb-tool-rect').count()).toBe(0);
  await eventually(async () => expect(await objectIds(watcher)).toEqual(['r', 't']));

  // The owner draws; the read-only member sees it arrive.
  const drawer = await suite.openAs(owner, `/${item_id}`);
  await ready(drawer);
  await drawRectangle(drawer, 500, 300);
  await eventually(async () => expect(await objectIds(watcher)).toHaveLength(3));

  // The diff of the two saved versions: before and after as pictures, not JSON text.
  const history = await PageHistory.find({ page_id: pageId }).sort({ page_history_id: 1 }).lean();
  const diff = await suite.openAs(
    owner,
    `/page/diff/${pageId}/${history[history.length - 1].page_history_id}`,
  );
  await diff.getByTestId('diff-board').waitFor();
  for (const side of ['diff-board-current', 'diff-board-history'])
    await eventually(async () =>
      expect(
        await diff.getByTestId(side).evaluate((img) => (img as HTMLImageElement).naturalWidth),
      ).toBeGreaterThan(0),
    );
  await screenshot(diff, 'whiteboard-diff');
});
