/**
 * The kanban cell (`npm run bench -- --kanban`, in the full run): a kanban item (type 6) of its
 * own, `watchers` Socket.IO sockets in its board page's room (read-only members, spread over
 * client processes as the lock cell's watchers are: socketClients.ts), and a card moved between
 * two lists with `kanban/moveTask`. Each move is timed from just before the REST call to the
 * moment each watcher receives the `kanban:changed` push carrying the card in its new list
 * (realtime/fanout.ts), on the machine's monotonic clock like the lock and notice cells.
 */
import { MAX_SOCKETS_PER_USER } from '../../realtime/auth';
import {
  apiData,
  failedCell,
  formatPushCells,
  itemWithMembers,
  pushCell,
  type PushCell,
} from './itemCells';
import { waitForQuiet } from './procstat';
import { apiCall, propagation, WARMUP_ROUNDS } from './realtimeSockets';
import type { SeedResult } from './seed';
import { LatencyLog } from './stats';
import { openSocketClients } from './socketClients';

export interface KanbanOptions {
  watchers: number;
  /** Card moves measured (after the propagation's warm-up rounds). */
  rounds: number;
  clientProcesses: number;
}

export const DEFAULT_KANBAN: KanbanOptions = { watchers: 100, rounds: 20, clientProcesses: 2 };

/**
 * Watching users the cell needs: each holds a few sockets, well under the per-user cap, and each
 * watch costs one of its user's watch allowance (models/platform/throttle.ts).
 */
export function kanbanUserCount(options: KanbanOptions): number {
  return Math.ceil(options.watchers / Math.max(1, Math.floor(MAX_SOCKETS_PER_USER / 2)));
}

interface BoardAnswer {
  page_id: number;
  board: { lists: Array<{ id: string }> };
}

export async function runKanbanCell(run: {
  url: string;
  seed: SeedResult;
  serverPid: number;
  ownPids: number[];
  options: KanbanOptions;
  log: (line: string) => void;
}): Promise<PushCell> {
  const { url, seed, serverPid, ownPids, options, log } = run;
  const scenario = 'kanban card move → watchers';
  const size = `${options.watchers} watchers × ${options.rounds} card moves`;
  const users = seed.realtimeUsers.slice(0, kanbanUserCount(options));
  if (!users.length) return failedCell(scenario, size, 'no realtime users were seeded');
  const owner = seed.userToken;

  let boardPageId: number;
  let cardId: number;
  let lists: [string, string];
  try {
    const itemId = await itemWithMembers(
      url,
      owner,
      6,
      'Benchmark board',
      users.map((u) => u.username),
      0,
    );
    const board = await apiData<BoardAnswer>(url, 'kanban/board', {
      item_id: itemId,
      user_token: owner,
    });
    if (board.board.lists.length < 2) throw new Error('the new board has fewer than two lists');
    boardPageId = board.page_id;
    lists = [board.board.lists[0].id, board.board.lists[1].id];
    cardId = (
      await apiData<{ page_id: number }>(url, 'kanban/addTask', {
        item_id: itemId,
        list_id: lists[0],
        title: 'Benchmark card',
        user_token: owner,
      })
    ).page_id;
  } catch (error) {
    return failedCell(scenario, size, `set-up: ${(error as Error).message}`);
  }

  log(`  ${options.watchers} board watchers in ${options.clientProcesses} client processes…`);
  const clients = await openSocketClients(
    url,
    users.map((u) => u.token),
    options.watchers,
    options.clientProcesses,
  );
  try {
    const refused = await clients.watch(boardPageId);
    const setupErrors = clients.failures + refused;
    await waitForQuiet(serverPid);
    // Round r moves the card to the other list: round 0 from the first list to the second.
    const listOf = (round: number) => lists[(round + 1) % 2];
    const calls = new LatencyLog();
    const result = await propagation({
      clients,
      rounds: options.rounds,
      serverPid,
      ownPids,
      match: (round) => ({
        event: 'kanban:changed',
        pageId: boardPageId,
        cardId,
        listId: listOf(round),
      }),
      trigger: async (round) => {
        const started = performance.now();
        const failure = await apiCall(url, 'kanban/moveTask', {
          page_id: cardId,
          list_id: listOf(round),
          index: 0,
          user_token: owner,
        });
        if (round >= WARMUP_ROUNDS) calls.add(performance.now() - started);
        return failure;
      },
    });
    const note = setupErrors
      ? `${clients.failures} connections failed, ${refused} watches refused${clients.firstError ? `: ${clients.firstError}` : ''}`
      : result.firstError;
    const cell = pushCell(
      scenario,
      size,
      result.latencies,
      result.errors + setupErrors,
      note,
      result.cpu,
    );
    const call = calls.summary();
    cell.call = {
      route: 'kanban/moveTask',
      p50Ms: call.p50Ms,
      p95Ms: call.p95Ms,
      p99Ms: call.p99Ms,
    };
    log(
      `  kanban: p50 ${cell.p50Ms} ms, p95 ${cell.p95Ms} ms, p99 ${cell.p99Ms} ms, errors ${cell.errors}; ` +
        `moveTask call alone p50 ${call.p50Ms} ms, p99 ${call.p99Ms} ms`,
    );
    return cell;
  } finally {
    await clients.close();
  }
}

export function formatKanban(cell: PushCell): string {
  return formatPushCells('Kanban (card move → every watcher of the board)', [cell]);
}
