/**
 * What a card move writes, against the real database: the board page gets its next version and a
 * change-log row, the activity log names the move, and the task page changes its list without a
 * version or a change-log row of its own — so a task's kept versions stay its own edits however
 * often it is dragged. An edit of the task still keeps a version. The board's push goes out, with
 * the card in its new list, before the move answers; and `savePageStaged` hands over the stored
 * row before the whole save is done, or fails both stages when the save fails.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Actor } from '../../../models/access';
import { ItemChangeLog } from '../../../models/items';
import {
  createTask,
  getBoard,
  kanbanActivity,
  moveTask,
  parseTask,
  updateTask,
} from '../../../models/kanban';
import { Page, PageHistory, savePageStaged, versionText } from '../../../models/pages';
import { type DomainEvents, events } from '../../../models/platform';
import { actorOf, addMember, makeItem } from '../../helpers/factories';
import { serverSuite } from '../../helpers/apiSuite';
import { makeUser } from '../../helpers/users';

serverSuite();
let alice: Actor;
let reader: Actor;
let itemId: number;
let boardPageId: number;
let lists: string[];

const versionsOf = (pageId: number) => PageHistory.countDocuments({ page_id: pageId });
const logRowsOf = (pageId: number) =>
  ItemChangeLog.countDocuments({ item_id: itemId, op_object_type: 'page', op_object_id: pageId });

beforeAll(async () => {
  const [a, r] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: itemId } = await makeItem(a, { item_type: 6 }));
  await addMember(itemId, r, 0);
  [alice, reader] = await Promise.all([actorOf(a), actorOf(r)]);
  const board = await getBoard(alice, itemId);
  boardPageId = board.page_id;
  lists = board.board.lists.map((l) => l.id);
});

describe('a card move', () => {
  test('versions the board, logs the move, and keeps no version of the task', async () => {
    const card = await createTask(alice, itemId, { listId: lists[0], title: 'Dragged often' });
    const before = {
      task: await versionsOf(card.page_id),
      taskLog: await logRowsOf(card.page_id),
      board: await versionsOf(boardPageId),
      boardLog: await logRowsOf(boardPageId),
      seq: (await Page.findOne({ page_id: card.page_id }).lean())!.history_seq ?? 0,
    };
    for (let i = 1; i <= 3; i++) await moveTask(alice, card.page_id, lists[i % 3], 0);

    const row = (await Page.findOne({ page_id: card.page_id }).lean())!;
    expect(parseTask(row.page_content)?.list_id).toBe(lists[0]);
    expect(row.history_seq ?? 0).toBe(before.seq);
    expect(await versionsOf(card.page_id)).toBe(before.task);
    expect(await logRowsOf(card.page_id)).toBe(before.taskLog);
    expect(await versionsOf(boardPageId)).toBe(before.board + 3);
    expect(await logRowsOf(boardPageId)).toBe(before.boardLog + 3);
    const moved = (await kanbanActivity(alice, { itemId })).activities.filter(
      (entry) => entry.page_id === card.page_id && entry.event_type === 'task_moved',
    );
    expect(moved).toHaveLength(3);
  });

  test('an edit of the task still keeps the version it replaces', async () => {
    const card = await createTask(alice, itemId, { listId: lists[0], title: 'Edited' });
    await moveTask(alice, card.page_id, lists[1], 0);
    const versions = await versionsOf(card.page_id);
    await updateTask(alice, card.page_id, { description: 'Now with a description' });
    expect(await versionsOf(card.page_id)).toBe(versions + 1);
    const kept = await PageHistory.findOne({ page_id: card.page_id })
      .sort({ page_history_id: -1 })
      .lean();
    // The version is the text the edit replaced: the card as the move left it.
    expect(parseTask(versionText(kept!))?.list_id).toBe(lists[1]);
  });

  test('pushes the board with the card in its new list before it answers', async () => {
    const card = await createTask(alice, itemId, { listId: lists[0], title: 'Watched' });
    const pushes: Array<{ event: DomainEvents['kanban.changed']; answered: boolean }> = [];
    let answered = false;
    const stop = events.subscribe('kanban.changed', (event) => {
      pushes.push({ event, answered });
    });
    try {
      await moveTask(alice, card.page_id, lists[2], 0).then(() => (answered = true));
    } finally {
      stop();
    }
    expect(pushes).toHaveLength(1);
    const [{ event, answered: afterAnswer }] = pushes;
    expect(afterAnswer).toBe(false);
    expect(event.board?.tasks_order[lists[2]][0]).toBe(String(card.page_id));
    expect(event.cards.map((c) => [c.page_id, c.list_id])).toEqual([[card.page_id, lists[2]]]);
  });
});

describe('savePageStaged', () => {
  test('hands over the stored row, then the whole save', async () => {
    const card = await createTask(alice, itemId, { listId: lists[0], title: 'Staged' });
    const order: string[] = [];
    const save = savePageStaged(
      alice,
      {
        pageId: card.page_id,
        itemId,
        title: 'Staged, renamed',
        content: '{"list_id":"x"}',
        catId: 0,
      },
      { origin: 'rest' },
    );
    const [row, saved] = await Promise.all([
      save.stored.then((r) => (order.push('stored'), r)),
      save.saved.then((r) => (order.push('saved'), r)),
    ]);
    expect(order).toEqual(['stored', 'saved']);
    expect(row.page_title).toBe('Staged, renamed');
    expect(row.page_content).toBe('{"list_id":"x"}');
    expect(saved.page.page_title).toBe('Staged, renamed');
    // A versioned save keeps the replaced text.
    expect(await versionsOf(card.page_id)).toBe(1);
  });

  test('a save refused before its row is written fails both stages and changes nothing', async () => {
    const card = await createTask(alice, itemId, { listId: lists[0], title: 'Not yours' });
    const save = savePageStaged(
      reader,
      { pageId: card.page_id, itemId, title: 'Taken over', content: 'x', catId: 0 },
      { origin: 'rest' },
    );
    await expect(save.stored).rejects.toThrow();
    await expect(save.saved).rejects.toThrow();
    const row = (await Page.findOne({ page_id: card.page_id }).lean())!;
    expect(row.page_title).toBe('Not yours');
  });
});
