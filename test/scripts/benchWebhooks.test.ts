/**
 * The bench's webhooks cell checks itself at a tiny size against a test server set up as the
 * bench sets its server (loopback allowed, delivery timeout above the receiver's delay): saves
 * run without and with a hook, the hook's deliveries reach the cell's slow receiver, the hook is
 * removed afterwards, and the report gives both runs and their ratio against the goal. Figures
 * are not asserted: speed is measured by the bench, never by a test.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { SeedResult } from '../../scripts/bench/seed';
import {
  DEFAULT_WEBHOOKS,
  formatWebhooks,
  runWebhookCell,
  webhookServerEnv,
} from '../../scripts/bench/webhooks';
import { benchSeed } from '../helpers/benchSeed';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let seed: SeedResult;
const options = {
  ...DEFAULT_WEBHOOKS,
  concurrency: 2,
  durationSec: 1.5,
  warmupSec: 0,
  receiverDelaySec: 2,
};

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent', ...webhookServerEnv(options) } });
  seed = await benchSeed({ pages: 10, users: 0 });
});

afterAll(async () => {
  await server?.stop();
});

test('saves run without and with a slow webhook, deliveries reach the receiver, the report gives the ratio', async () => {
  const cell = await runWebhookCell({
    url: server.url,
    seed,
    serverPid: process.pid,
    ownPids: [],
    options,
    log: () => {},
  });
  expect(cell.note).toBeUndefined();
  expect(cell.ok).toBe(true);
  expect(cell.without.requests).toBeGreaterThan(0);
  expect(cell.with.requests).toBeGreaterThan(0);
  expect(cell.deliveriesReceived).toBeGreaterThan(0);
  expect(cell.fractionWithout).toBeCloseTo(cell.with.rps / cell.without.rps, 2);
  const hooks = await server.api
    .withToken(seed.userToken)
    .call('webhook/list', { item_id: seed.itemId });
  expect(hooks.body).toMatchObject({ error_code: 0, data: [] });
  const text = formatWebhooks(cell);
  expect(text).toContain('receiver answers after 2 s');
  expect(text).toMatch(/With ÷ without: [\d.]+ \(goal ≥ 0.9: (ok|\*\*under\*\*)\)/);
}, 120_000);
