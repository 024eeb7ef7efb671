/**
 * The webhooks cell (`npm run bench -- --webhooks`, in the full run): `page/save` at concurrency
 * 10 without a webhook, then with one on the item (`webhook/save`, event page.updated) pointing at
 * a receiver in this process that answers each delivery only after 10 s. Deliveries are queued
 * and sent after the save answers (models/webhooks), so a slow receiver should not slow the
 * saves: the goal is a with/without throughput ratio of at least 0.9.
 *
 * The bench server runs with ALLOW_PRIVATE_HOSTS=127.0.0.1 (the receiver is on loopback) and a
 * delivery timeout above the receiver's delay (WEBHOOK_TIMEOUT_MS), so deliveries succeed slowly
 * rather than fail: failures in a row would switch the hook off (WEBHOOK_DISABLE_AFTER) part-way
 * through the cell and leave the rest of it measuring saves without a hook.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { planRequests, runHttpCell, type HttpCell } from './http';
import { apiData } from './itemCells';
import { waitForQuiet } from './procstat';
import type { SeedResult } from './seed';

export interface WebhookOptions {
  concurrency: number;
  durationSec: number;
  /** Untimed saves before the first measurement. */
  warmupSec: number;
  /** How long the receiver takes to answer each delivery. */
  receiverDelaySec: number;
}

export const DEFAULT_WEBHOOKS: WebhookOptions = {
  concurrency: 10,
  durationSec: 15,
  warmupSec: 2,
  receiverDelaySec: 10,
};

export const WEBHOOK_GOAL_FRACTION = 0.9;

/** The bench server's settings the cell needs (see the header). */
export function webhookServerEnv(options: WebhookOptions): Record<string, string> {
  return {
    ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: String(Math.round((options.receiverDelaySec + 5) * 1000)),
  };
}

export interface WebhookCell {
  concurrency: number;
  durationSec: number;
  receiverDelaySec: number;
  without: HttpCell;
  with: HttpCell;
  /** Saves per second with the hook divided by without. */
  fractionWithout: number;
  /** Deliveries the receiver got during the cell and after it, until it closed. */
  deliveriesReceived: number;
  goalFraction: number;
  goalMet: boolean;
  /** Both runs answered only successes and the hook was created. */
  ok: boolean;
  note?: string;
}

/** How long after the cell a first delivery may still come before the hook counts as not live. */
const FIRST_DELIVERY_WAIT_MS = 10_000;

/** A receiver that holds every request `delaySec` before answering 200. */
async function slowReceiver(delaySec: number) {
  let received = 0;
  let arrived: () => void = () => {};
  const firstArrival = new Promise<void>((resolve) => (arrived = resolve));
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    received++;
    arrived();
    req.resume();
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.end('ok');
    }, delaySec * 1000);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench-hook`,
    received: () => received,
    /** Waits up to `ms` for a first delivery (at once if one came). */
    async firstDelivery(ms: number): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        firstArrival,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
      ]);
      clearTimeout(timer);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function runWebhookCell(run: {
  url: string;
  seed: SeedResult;
  serverPid: number;
  ownPids: number[];
  options: WebhookOptions;
  log: (line: string) => void;
}): Promise<WebhookCell> {
  const { url, seed, serverPid, ownPids, options, log } = run;
  const plan = planRequests('page/save', seed);
  const base = { target: 'quire' as const, url, plan, serverPid, ownPids };
  const cell = (scenario: string, durationSec: number) =>
    runHttpCell({ ...base, scenario, concurrency: options.concurrency, durationSec });

  if (options.warmupSec > 0) await cell('webhooks: warm-up', options.warmupSec);
  await waitForQuiet(serverPid);
  const without = await cell('page/save without a webhook', options.durationSec);
  log(
    `  without a webhook ×${options.concurrency}: ${without.rps} saves/s, p99 ${without.latency.p99Ms} ms`,
  );

  const receiver = await slowReceiver(options.receiverDelaySec);
  let hookId = 0;
  let note: string | undefined;
  try {
    try {
      hookId = (
        await apiData<{ id: number }>(url, 'webhook/save', {
          item_id: seed.itemId,
          url: receiver.url,
          events: 'page.updated',
          user_token: seed.userToken,
        })
      ).id;
    } catch (error) {
      note = `the webhook was not created: ${(error as Error).message}`;
    }
    await waitForQuiet(serverPid);
    const withHook = await cell('page/save with a slow webhook', options.durationSec);
    const fractionWithout = without.rps ? Number((withHook.rps / without.rps).toFixed(3)) : 0;
    // Deliveries go out after the saves answer (batched, then queued): on a loaded host the first
    // may leave only after the cell. A few seconds more before saying the hook was not live.
    if (hookId) await receiver.firstDelivery(FIRST_DELIVERY_WAIT_MS);
    const deliveriesReceived = receiver.received();
    if (hookId && !deliveriesReceived) note ??= 'the receiver got no delivery during the cell';
    log(
      `  with a webhook answering after ${options.receiverDelaySec} s: ${withHook.rps} saves/s ` +
        `(${fractionWithout} of without), p99 ${withHook.latency.p99Ms} ms, ${deliveriesReceived} deliveries received`,
    );
    return {
      concurrency: options.concurrency,
      durationSec: options.durationSec,
      receiverDelaySec: options.receiverDelaySec,
      without,
      with: withHook,
      fractionWithout,
      deliveriesReceived,
      goalFraction: WEBHOOK_GOAL_FRACTION,
      goalMet: fractionWithout >= WEBHOOK_GOAL_FRACTION,
      ok: without.ok && withHook.ok && hookId > 0,
      ...(note ? { note } : {}),
    };
  } finally {
    // The hook goes, so nothing after the cell (or a rerun on this session) delivers to it.
    if (hookId)
      await apiData(url, 'webhook/delete', {
        item_id: seed.itemId,
        id: hookId,
        user_token: seed.userToken,
      }).catch(() => {});
    await receiver.close();
  }
}

export function formatWebhooks(cell: WebhookCell): string {
  const row = (name: string, c: HttpCell) =>
    `| ${name} | ${c.rps} | ${c.latency.p50Ms} | ${c.latency.p99Ms} | ${c.latency.maxMs} | ${c.requests} | ${c.errors.total} |`;
  return [
    `### Webhooks (page/save ×${cell.concurrency}, ${cell.durationSec} s each; receiver answers after ${cell.receiverDelaySec} s)`,
    '',
    '| | saves/s | p50 ms | p99 ms | max ms | requests | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('without a webhook', cell.without),
    row('with a slow webhook', cell.with),
    '',
    `With ÷ without: ${cell.fractionWithout} (goal ≥ ${cell.goalFraction}: ${cell.goalMet ? 'ok' : '**under**'}); ` +
      `${cell.deliveriesReceived} deliveries reached the receiver; ${cell.ok ? 'ok' : '**FAIL**'}${cell.note ? ` — ${cell.note}` : ''}.`,
  ].join('\n');
}
