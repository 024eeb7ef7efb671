/**
 * Board writes against the real database: moves by two people at once all land, one after the
 * other (no move is lost to another's overwrite), the stored board names every card exactly once
 * in the list its task page says, each write bumps the version by one and its `kanban.changed`
 * carries the board after it — so a screen that keeps the highest version ends on the stored
 * board. A lease held by another process holds a write back until it is released.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Actor } from '../../../models/access';
import {
  createTask,
  getBoard,
  KanbanBoardLock,
  type KanbanBoardData,
  moveTask,
  parseTask,
} from '../../../models/kanban';
import { Page } from '../../../models/pages/schemas';
import { type DomainEvents, events } from '../../../models/platform';
import { actorOf, addMember, makeItem } from '../../helpers/factories';
import { serverSuite } from '../../helpers/apiSuite';
import { makeUser } from '../../helpers/users';

serverSuite();
let alice: Actor;
let bob: Actor;
let itemId: number;
let lists: string[];
let cards: number[];

async function stored(): Promise<KanbanBoardData> {
  const page = await Page.findOne({
    item_id: itemId,
    page_title: '__kanban_board__',
    is_del: 0,
  }).lean();
  return JSON.parse(page!.page_content) as KanbanBoardData;
}

/** Every card is named once, in the list its own page says. */
async function expectConsistent(board: KanbanBoardData): Promise<void> {
  const named = Object.values(board.tasks_order).flat();
  expect([...named].sort()).toEqual(cards.map(String).sort());
  for (const [listId, ids] of Object.entries(board.tasks_order))
    for (const id of ids) {
      const page = await Page.findOne({ page_id: Number(id) }).lean();
      expect(parseTask(page!.page_content)?.list_id).toBe(listId);
    }
}

beforeAll(async () => {
  const [a, b] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: itemId } = await makeItem(a, { item_type: 6 }));
  await addMember(itemId, b, 1);
  [alice, bob] = await Promise.all([actorOf(a), actorOf(b)]);
  lists = (await getBoard(alice, itemId)).board.lists.map((l) => l.id);
  cards = [];
  for (let i = 0; i < 8; i++)
    cards.push(
      (await createTask(alice, itemId, { listId: lists[i % 3], title: `Card ${i}` })).page_id,
    );
});

describe('concurrent moves converge', () => {
  test('two people moving cards at once: every move lands, versions run one by one', async () => {
    const seen: DomainEvents['kanban.changed'][] = [];
    const stop = events.subscribe('kanban.changed', (e) => void seen.push(e));
    const before = (await stored()).meta.version;
    const moves: Promise<unknown>[] = [];
    for (let i = 0; i < 16; i++) {
      const actor = i % 2 ? bob : alice;
      const card = cards[(i * 5) % cards.length];
      moves.push(moveTask(actor, card, lists[(i * 7) % lists.length], i % 3));
    }
    await Promise.all(moves);
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    const board = await stored();
    expect(board.meta.version).toBe(before + 16);
    await expectConsistent(board);
    const versions = seen.map((e) => e.version).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: 16 }, (_, i) => before + i + 1));
    // The push with the highest version is the stored board: where every screen ends.
    const last = seen.find((e) => e.version === board.meta.version)!;
    expect(last.board?.tasks_order).toEqual(board.tasks_order);
    expect(last.board?.lists).toEqual(board.lists);
  });

  test('the same card moved by both at once ends in exactly one of the two places', async () => {
    const card = cards[0];
    await Promise.all([moveTask(alice, card, lists[1], 0), moveTask(bob, card, lists[2], 0)]);
    const board = await stored();
    await expectConsistent(board);
    const where = Object.entries(board.tasks_order).filter(([, ids]) => ids.includes(String(card)));
    expect(where).toHaveLength(1);
    expect([lists[1], lists[2]]).toContain(where[0][0]);
    expect(where[0][1][0]).toBe(String(card));
  });

  test('a write waits while another process holds the board, then applies', async () => {
    await KanbanBoardLock.create({
      item_id: itemId,
      holder: 'another process',
      until: Date.now() + 60_000,
    });
    const version = (await stored()).meta.version;
    let done = false;
    const move = moveTask(alice, cards[1], lists[0], 0).then((r) => {
      done = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    expect((await stored()).meta.version).toBe(version);
    await KanbanBoardLock.deleteOne({ item_id: itemId, holder: 'another process' });
    await move;
    const board = await stored();
    expect(board.meta.version).toBe(version + 1);
    expect(board.tasks_order[lists[0]][0]).toBe(String(cards[1]));
  });
});
