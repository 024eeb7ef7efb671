/**
 * What the item-kind push cells share (kanban.ts, whiteboard.ts): their result row, the API calls
 * that set up an item of their own for them, and their Markdown table.
 */
import type { CpuUse } from './procstat';
import type { LatencyLog } from './stats';

/** The issue's goal for a push to reach every watcher or co-drawer. */
export const PUSH_GOAL_P99_MS = 50;

export interface PushCell {
  scenario: string;
  /** What was measured, e.g. "100 watchers × 20 card moves". */
  size: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Deliveries that never arrived, refused connections or watches, error answers. */
  errors: number;
  goalP99Ms: number;
  /** p99 within the goal (reported, not enforced). */
  goalMet: boolean;
  /** Every delivery arrived and every call answered; something was measured. */
  ok: boolean;
  note?: string;
  cpu?: CpuUse | null;
  /**
   * The REST call that causes the push, alone (measured rounds): its answer time is part of every
   * delivery's latency, so this tells the server's write from the fan-out.
   */
  call?: { route: string; p50Ms: number; p95Ms: number; p99Ms: number };
}

export function pushCell(
  scenario: string,
  size: string,
  latencies: LatencyLog,
  errors: number,
  note: string | undefined,
  cpu: CpuUse | null,
): PushCell {
  const s = latencies.summary();
  return {
    scenario,
    size,
    samples: latencies.count,
    p50Ms: s.p50Ms,
    p95Ms: s.p95Ms,
    p99Ms: s.p99Ms,
    maxMs: s.maxMs,
    errors,
    goalP99Ms: PUSH_GOAL_P99_MS,
    goalMet: latencies.count > 0 && s.p99Ms <= PUSH_GOAL_P99_MS,
    ok: errors === 0 && latencies.count > 0,
    ...(note ? { note } : {}),
    cpu,
  };
}

/** A cell that could not run: no figures, the reason. */
export function failedCell(scenario: string, size: string, reason: string): PushCell {
  return {
    scenario,
    size,
    samples: 0,
    p50Ms: 0,
    p95Ms: 0,
    p99Ms: 0,
    maxMs: 0,
    errors: 1,
    goalP99Ms: PUSH_GOAL_P99_MS,
    goalMet: false,
    ok: false,
    note: reason,
  };
}

/** POSTs a form to the API; the data of a success, else throws with what it answered. */
export async function apiData<T>(
  url: string,
  route: string,
  fields: Record<string, string | number>,
): Promise<T> {
  const response = await fetch(`${url}/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  });
  const text = await response.text();
  let envelope: { error_code?: number; data?: T } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // reported below with the text
  }
  if (response.status !== 200 || envelope.error_code !== 0)
    throw new Error(`${route}: HTTP ${response.status} ${text.slice(0, 160)}`);
  return envelope.data as T;
}

/** Creates an item of `itemType` owned by `ownerToken` and adds `usernames` as members. */
export async function itemWithMembers(
  url: string,
  ownerToken: string,
  itemType: number,
  name: string,
  usernames: string[],
  memberGroupId: 0 | 1,
): Promise<number> {
  const { item_id: itemId } = await apiData<{ item_id: number }>(url, 'item/add', {
    item_name: name,
    item_type: itemType,
    user_token: ownerToken,
  });
  // member/save takes a comma list of at most 100 names (models/members MAX_USERNAMES_PER_CALL).
  for (let i = 0; i < usernames.length; i += 100)
    await apiData(url, 'member/save', {
      item_id: itemId,
      username: usernames.slice(i, i + 100).join(','),
      member_group_id: memberGroupId,
      user_token: ownerToken,
    });
  return itemId;
}

export function formatPushCells(title: string, cells: PushCell[]): string {
  const row = (c: PushCell) =>
    `| ${c.scenario} | ${c.size} | ${c.p50Ms} | ${c.p95Ms} | ${c.p99Ms} | ${c.maxMs} | ${c.samples} | ${c.errors} | ` +
    `p99 ≤ ${c.goalP99Ms} ${c.goalMet ? 'ok' : '**over**'} | ${c.ok ? 'ok' : '**FAIL**'}${c.note ? ` ${c.note}` : ''} |`;
  return [
    `### ${title}`,
    '',
    '| scenario | size | p50 ms | p95 ms | p99 ms | max ms | samples | errors | goal | status |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...cells.map(row),
    ...cells
      .filter((c) => c.call)
      .flatMap((c) => [
        '',
        `The ${c.call!.route} call alone (request to answer, measured rounds): p50 ${c.call!.p50Ms} ms, ` +
          `p95 ${c.call!.p95Ms} ms, p99 ${c.call!.p99Ms} ms.`,
      ]),
  ].join('\n');
}
