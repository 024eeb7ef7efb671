/**
 * Kanban boards in real browsers: a kanban item is created from the item list's dialog; two
 * members open one board — a card one drags into another list shows there on the other's screen
 * (no reload), each sees the other on the board, and when both drag at the same time both screens
 * settle on the stored board; a read-only member sees the cards without drag handles; a card's
 * detail renders its Markdown description and saves a field, and a task's address opens it.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { createTask, getBoard } from '../../models/kanban';
import { Item } from '../../models/items/schemas';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, dragOnto, screenshot } from './helpers';
import { eventually } from './readerFixture';

let owner: TestUser;
let editor: TestUser;
let reader: TestUser;

const suite = browserSuite({
  setup: async () => {
    [owner, editor, reader] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  },
});

/** A board with the editor and the reader as members, three cards in its first list. */
async function board(name: string): Promise<{ itemId: number; lists: string[]; cards: number[] }> {
  const { item_id: itemId } = await makeItem(owner, { item_name: name, item_type: 6 });
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
  const actor = await actorOf(owner);
  const lists = (await getBoard(actor, itemId)).board.lists.map((l) => l.id);
  const cards: number[] = [];
  for (const title of ['Alpha', 'Bravo', 'Charlie'])
    cards.push((await createTask(actor, itemId, { listId: lists[0], title })).page_id);
  return { itemId, lists, cards };
}

type Order = Record<string, string[]>;

async function storedOrder(itemId: number): Promise<Order> {
  const page = await PageModel.findOne({ item_id: itemId, page_title: '__kanban_board__' }).lean();
  const stored = JSON.parse(page!.page_content) as {
    lists: { id: string }[];
    tasks_order: Order;
  };
  return Object.fromEntries(stored.lists.map((l) => [l.id, stored.tasks_order[l.id] ?? []]));
}

function shownOrder(page: Page): Promise<Order> {
  return page
    .locator('[data-testid="kanban-list"]')
    .evaluateAll((sections) =>
      Object.fromEntries(
        sections.map((section) => [
          section.getAttribute('data-list-id') ?? '',
          [...section.querySelectorAll('[data-testid="kanban-card"]')].map(
            (card) => card.getAttribute('data-page-id') ?? '',
          ),
        ]),
      ),
    );
}

async function openBoard(user: TestUser, itemId: number): Promise<Page> {
  const page = await suite.openAs(user, `/${itemId}`);
  await page.getByTestId('kanban-card').first().waitFor();
  return page;
}

const handleOf = (page: Page, pageId: number) =>
  page.locator(
    `[data-testid="kanban-card"][data-page-id="${pageId}"] [data-testid="kanban-drag-handle"]`,
  );
const listArea = (page: Page, listId: string) =>
  page.locator(`[data-testid="kanban-list"][data-list-id="${listId}"]`);

test('a kanban item is created from the item list and opens as a board', async () => {
  const user = await makeUser();
  const page = await suite.openAs(user, '/item/index');
  await page.getByRole('button', { name: 'New item' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  await dialog.getByRole('radio', { name: /Kanban board/ }).check();
  await dialog.getByLabel('Item name').fill('Team board');
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await page.locator('[data-item-name="Team board"]').waitFor();
  const item = await Item.findOne({ uid: user.uid, item_name: 'Team board' }).lean();
  expect(item?.item_type).toBe(6);
  await page.locator('[data-item-name="Team board"] a').first().click();
  await page.getByTestId('kanban-board').waitFor();
  await eventually(
    () => page.getByTestId('kanban-list-title').allTextContents(),
    ['To do', 'In progress', 'Done'],
  );
  // A task added on the board is a card in that list.
  await page.getByTestId('kanban-add-task').first().click();
  await page.getByTestId('kanban-new-task').fill('First task');
  await page.getByTestId('kanban-new-task').press('Enter');
  await page.getByTestId('kanban-card-title').getByText('First task').waitFor();
  await screenshot(page, '70-kanban-board');
});

test('a card dragged by one member moves on the other’s screen; both see each other', async () => {
  const { itemId, lists, cards } = await board('Live board');
  const ownerPage = await openBoard(owner, itemId);
  const editorPage = await openBoard(editor, itemId);
  await ownerPage.getByTestId('kanban-presence-user').first().waitFor();
  await editorPage.getByTestId('kanban-presence-user').first().waitFor();

  await dragOnto(ownerPage, handleOf(ownerPage, cards[0]), listArea(ownerPage, lists[1]));
  await eventually(async () => (await storedOrder(itemId))[lists[1]], [String(cards[0])]);
  await eventually(async () => (await shownOrder(editorPage))[lists[1]], [String(cards[0])]);
  await eventually(
    async () => (await shownOrder(editorPage))[lists[0]],
    [String(cards[1]), String(cards[2])],
  );
  await screenshot(editorPage, '71-kanban-moved-live');
});

test('two members dragging at the same time end on the same, stored board', async () => {
  const { itemId, lists, cards } = await board('Busy board');
  const ownerPage = await openBoard(owner, itemId);
  const editorPage = await openBoard(editor, itemId);
  await Promise.all([
    dragOnto(ownerPage, handleOf(ownerPage, cards[0]), listArea(ownerPage, lists[2])),
    dragOnto(editorPage, handleOf(editorPage, cards[2]), listArea(editorPage, lists[1])),
  ]);
  await eventually(async () => (await storedOrder(itemId))[lists[0]], [String(cards[1])]);
  const stored = await storedOrder(itemId);
  expect(stored[lists[1]]).toEqual([String(cards[2])]);
  expect(stored[lists[2]]).toEqual([String(cards[0])]);
  await eventually(() => shownOrder(ownerPage), stored);
  await eventually(() => shownOrder(editorPage), stored);
});

test('a read-only member sees the cards without drag handles; the detail renders Markdown', async () => {
  const { itemId, cards } = await board('Read-only board');
  const actor = await actorOf(owner);
  const { updateTask } = await import('../../models/kanban');
  await updateTask(actor, cards[0], { description: '## Steps\n\n- **one**\n- two' });
  const readerPage = await openBoard(reader, itemId);
  await eventually(() => readerPage.getByTestId('kanban-card').count(), 3);
  expect(await readerPage.getByTestId('kanban-drag-handle').count()).toBe(0);
  expect(await readerPage.getByTestId('kanban-add-task').count()).toBe(0);
  await readerPage.getByTestId('kanban-card').first().click();
  const drawer = readerPage.getByTestId('kanban-task-drawer');
  await drawer.locator('h2', { hasText: 'Steps' }).waitFor();
  await drawer.locator('strong', { hasText: 'one' }).waitFor();

  // The editor sets the priority in the drawer: the reader's open card follows.
  const editorPage = await openBoard(editor, itemId);
  expect(await editorPage.getByTestId('kanban-drag-handle').count()).toBe(3);
  await editorPage.getByTestId('kanban-card').first().click();
  const editorDrawer = editorPage.getByTestId('kanban-task-drawer');
  // Controlled by the board: it shows ticked once the stored change comes back.
  await editorDrawer.getByRole('checkbox', { name: 'Done' }).click();
  await eventually(() => editorDrawer.getByRole('checkbox', { name: 'Done' }).isChecked(), true);
  await readerPage
    .locator(`[data-testid="kanban-card"][data-page-id="${cards[0]}"] .anticon-check-circle`)
    .waitFor();

  // Filters narrow the cards shown; the activity log lists what happened on the board.
  await readerPage.keyboard.press('Escape');
  await readerPage.getByTestId('kanban-filter-text').locator('input').fill('brav');
  await eventually(() => readerPage.getByTestId('kanban-card').count(), 1);
  await readerPage.getByTestId('kanban-card-title').getByText('Bravo').waitFor();
  await readerPage.getByTestId('kanban-filter-text').locator('input').fill('');
  await eventually(() => readerPage.getByTestId('kanban-card').count(), 3);
  await readerPage.getByTestId('kanban-activity').click();
  await readerPage
    .getByTestId('kanban-activity-drawer')
    .getByText(/completed “Alpha”/)
    .waitFor();
  expect(await readerPage.getByTestId('kanban-activity-entry').count()).toBeGreaterThanOrEqual(4);

  // A task's own address (a search hit) opens the board with that card's detail.
  const linked = await suite.openAs(reader, `/${itemId}/${cards[1]}`);
  await linked
    .getByTestId('kanban-task-drawer')
    .getByTestId('kanban-task-title')
    .getByText('Bravo')
    .waitFor();
});
