/**
 * The Webhooks tab of the item settings in the browser: a manager adds a generic JSON hook to a
 * local receiver (127.0.0.1, allowed by ALLOW_PRIVATE_HOSTS), sees its secret once, sends a test
 * message (which the receiver gets, signed with that secret), opens the delivery log (status,
 * response code, attempts) and redelivers from it, and a page save with its event chosen reaches
 * the receiver and the log too.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeItem } from '../helpers/factories';
import { makeUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let hookUrl = '';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/quire`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const suite = browserSuite({ env: { ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });

async function until<T>(probe: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function signedWith(secret: string, got: Received): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-quire-signature']));
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${got.body}`).digest('hex') === match[2];
}

test('add a hook in the Webhooks tab, test it, read the delivery log and redeliver', async () => {
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner, { item_name: 'Orders API' });
  const page = await suite.openAs(owner, `/item/setting/${itemId}`);
  await page.getByRole('tab', { name: 'Webhooks' }).click();

  await page.getByRole('button', { name: 'New webhook' }).click();
  const create = page.locator('.ant-modal', { hasText: 'New webhook' });
  await create.getByLabel('Receiver URL').fill(hookUrl);
  await create.getByRole('button', { name: 'Create' }).click();

  // The secret is shown once.
  const reveal = page.locator('.ant-modal', { hasText: 'Signing secret' });
  await reveal.getByText('Copy it now: it is shown only this once.').waitFor();
  const secret = (await reveal.locator('code').innerText()).trim();
  expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
  await reveal.getByRole('button', { name: 'OK' }).click();
  await reveal.waitFor({ state: 'hidden' });

  const row = page.locator('tr', { hasText: hookUrl });
  await row.getByText('Generic JSON (signed)').waitFor();
  await row.getByRole('button', { name: 'Send test message' }).click();
  await page.getByText('Test delivered (HTTP 200)').waitFor();
  const ping = await until(() => received[0], 'the test message');
  expect(ping.headers['x-quire-event']).toBe('ping');
  expect(signedWith(secret, ping)).toBe(true);
  expect(signedWith('whsec_other', ping)).toBe(false);

  // A page save (every event is chosen by default) is delivered too.
  const api = suite.server.api.withToken(owner.user_token);
  await api.ok('page/save', { item_id: itemId, page_title: 'GET /orders', page_content: 'list' });
  const created = await until(
    () => received.find((r) => r.headers['x-quire-event'] === 'page.created'),
    'the page.created delivery',
  );
  expect(JSON.parse(created.body)).toMatchObject({
    event: 'page.created',
    page: { page_title: 'GET /orders' },
  });

  // The log: both deliveries, delivered with HTTP 200 in one attempt.
  await row.getByRole('button', { name: 'Delivery log' }).click();
  const log = page.locator('.ant-drawer', { hasText: 'Delivery log' });
  const pingRow = log.locator('tr', { hasText: 'ping' });
  await pingRow.getByText('Delivered').waitFor();
  await pingRow.getByText('200').waitFor();
  await log.locator('tr', { hasText: 'page.created' }).getByText('Delivered').waitFor();
  await screenshot(page, 'webhooks-log');

  // Redeliver the test message: the receiver gets it again, signed afresh.
  const before = received.length;
  await pingRow.getByRole('button', { name: 'Redeliver' }).click();
  await page.getByText('Queued for redelivery').waitFor();
  const again = await until(() => received[before], 'the redelivery');
  expect(again.headers['x-quire-event']).toBe('ping');
  expect(signedWith(secret, again)).toBe(true);
  // A redelivery is a new row of its own in the log.
  for (let attempt = 0; ; attempt++) {
    await log.getByRole('button', { name: 'Refresh' }).click();
    const delivered = await log
      .locator('tr', { hasText: 'ping' })
      .filter({ hasText: 'Delivered' })
      .count();
    if (delivered === 2) break;
    if (attempt > 20) throw new Error(`the log shows ${delivered} delivered test messages`);
    await page.waitForTimeout(300);
  }
});
