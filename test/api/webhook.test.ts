/**
 * webhook/* over real HTTP with deliveries to a real local receiver (127.0.0.1, allowed by
 * ALLOW_PRIVATE_HOSTS in the server's env): the signature verifies, a page save queues exactly
 * one delivery with its digest, a receiver answering 500 gets retries on the (configured, here
 * sub-second) back-off schedule, redelivery, automatic switch-off after repeated failures with a
 * notice to the item's owner, the delivery log, the test message, secret rotation, the address
 * policy's refusal of a private address not on the list, and managers-only access.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver';
import { makeUser } from '../helpers/users';

/** Status to answer per path (default 200); a function to vary by attempt. */
const answers = new Map<string, (n: number) => number>();
let receiver: Receiver;
let received: ReceivedRequest[] = [];
let base = '';

beforeAll(async () => {
  receiver = await startReceiver(({ path }, res) => {
    const count = received.filter((r) => r.path === path).length;
    res.statusCode = answers.get(path)?.(count) ?? 200;
    res.end('ok');
  });
  received = receiver.received;
  base = receiver.base;
});

afterAll(() => receiver.close());

const suite = apiSuite({
  env: {
    ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: '0.4,0.8',
    WEBHOOK_DISABLE_AFTER: '3',
    WEBHOOK_TIMEOUT_MS: '3000',
  },
});
const { as } = suite;

async function newItem(): Promise<number> {
  const { item_id } = await makeItem(suite.owner);
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  return item_id;
}

async function until<T>(probe: () => T | Promise<T>, what: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const at = (path: string) => received.filter((r) => r.path === path);

function verify(secret: string, header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex');
  return expected === match[2] && Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
}

interface Delivery {
  id: number;
  event: string;
  status: string;
  attempts: number;
  response_code: number;
  latency_ms: number;
  error: string;
}

const log = (itemId: number, id: number) =>
  as(suite.owner).ok<{ list: Delivery[]; total: number }>('webhook/deliveries', {
    item_id: itemId,
    id,
  });

async function savePage(itemId: number, pageId: number, content: string): Promise<number> {
  const saved = await as(suite.owner).ok<{ page_id: number }>('page/save', {
    item_id: itemId,
    page_id: pageId,
    page_title: 'Orders API',
    page_content: content,
  });
  return Number(saved.page_id);
}

describe('webhook deliveries', () => {
  test('a page save queues one signed delivery with the digest, logged as a success', async () => {
    const itemId = await newItem();
    const pageId = await savePage(itemId, 0, 'GET /orders\nreturns a list');
    const made = await as(suite.owner).ok<{ id: number; secret: string }>('webhook/save', {
      item_id: itemId,
      url: `${base}/one`,
      events: 'page.updated',
    });
    expect(made.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const listed = await as(suite.owner).ok<unknown[]>('webhook/list', { item_id: itemId });
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    await savePage(itemId, pageId, 'GET /orders\nreturns a page of orders\nPOST /orders');
    await until(() => at('/one').length === 1, 'the delivery');
    const [got] = at('/one');
    const body = JSON.parse(got.body) as Record<string, any>;
    expect(verify(made.secret, String(got.headers['x-quire-signature']), got.body)).toBe(true);
    expect(verify('whsec_wrong', String(got.headers['x-quire-signature']), got.body)).toBe(false);
    expect(got.headers['x-quire-event']).toBe('page.updated');
    expect(body).toMatchObject({
      schema: 'quire.webhook/1',
      event: 'page.updated',
      item: { item_id: itemId },
      page: { page_id: pageId, page_title: 'Orders API' },
      actor: { uid: suite.owner.uid, username: suite.owner.username },
      digest: { diff: { added: 2, removed: 1 } },
    });
    expect(body.digest.diff.lines).toEqual([
      '- returns a list',
      '+ returns a page of orders',
      '+ POST /orders',
    ]);
    expect(body.digest.summary).toContain('Orders API');
    expect(body.links.page).toContain(`/${itemId}/${pageId}`);
    expect(Date.parse(body.delivered_at)).toBeGreaterThan(Date.now() - 60_000);

    await until(async () => (await log(itemId, made.id)).list[0]?.status === 'success', 'log');
    await new Promise((r) => setTimeout(r, 300));
    expect(at('/one')).toHaveLength(1);
    const { list, total } = await log(itemId, made.id);
    expect(total).toBe(1);
    expect(list[0]).toMatchObject({ event: 'page.updated', status: 'success', attempts: 1 });
    expect(list[0].response_code).toBe(200);
    expect(list[0].latency_ms).toBeGreaterThanOrEqual(0);

    // Redeliver: the same body again, as a new row of the log.
    const again = await as(suite.owner).ok<{ delivery_id: number }>('webhook/redeliver', {
      item_id: itemId,
      delivery_id: list[0].id,
    });
    expect(again.delivery_id).not.toBe(list[0].id);
    await until(() => at('/one').length === 2, 'the redelivery');
    expect(JSON.parse(at('/one')[1].body)).toMatchObject({
      event: 'page.updated',
      page: { page_id: pageId },
    });
    await until(async () => (await log(itemId, made.id)).total === 2, 'two log rows');
  });

  test('a receiver answering 500 gets retries on the back-off schedule until it succeeds', async () => {
    const itemId = await newItem();
    answers.set('/flaky', (n) => (n <= 2 ? 500 : 200));
    const made = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: itemId,
      url: `${base}/flaky`,
      events: ['page.created'],
    });
    const started = Date.now();
    await savePage(itemId, 0, 'new page');
    await until(() => at('/flaky').length === 3, 'three attempts');
    const times = at('/flaky').map((r) => r.at);
    // 0.4 s then 0.8 s (WEBHOOK_RETRY_SCHEDULE): each wait at least its step.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(350);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(750);
    expect(times[0] - started).toBeLessThan(2000);
    const row = await until(async () => {
      const first = (await log(itemId, made.id)).list[0];
      return first?.status === 'success' && first;
    }, 'success in the log');
    expect(row).toMatchObject({ attempts: 3, response_code: 200 });
    const [hook] = await as(suite.owner).ok<Array<{ fail_count: number; enabled: number }>>(
      'webhook/list',
      { item_id: itemId },
    );
    expect(hook).toMatchObject({ fail_count: 0, enabled: 1 });
  });

  test('repeated failures switch the hook off and tell the owner', async () => {
    const itemId = await newItem();
    answers.set('/down', () => 500);
    const made = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: itemId,
      url: `${base}/down`,
      events: 'page.created',
    });
    await savePage(itemId, 0, 'to a dead receiver');
    await until(async () => {
      const [hook] = await as(suite.owner).ok<Array<{ enabled: number }>>('webhook/list', {
        item_id: itemId,
      });
      return hook.enabled === 0;
    }, 'the switch-off');
    expect(at('/down')).toHaveLength(3);
    const [hook] = await as(suite.owner).ok<Array<Record<string, unknown>>>('webhook/list', {
      item_id: itemId,
    });
    expect(hook).toMatchObject({ enabled: 0, fail_count: 3 });
    expect(String(hook.disabled_reason)).toContain('3 failed');
    const { list } = await log(itemId, made.id);
    expect(list[0]).toMatchObject({ status: 'failed', attempts: 3, response_code: 500 });
    const notices = await until(async () => {
      const answer = await as(suite.owner).ok<{ list: Array<{ message_content?: string }> }>(
        'message/getRemindList',
        {},
      );
      return answer.list.find((m) => m.message_content?.includes(`#${made.id}`));
    }, 'the owner notice');
    expect(notices?.message_content).toContain('switched off');
    // A switched-off hook gets nothing more.
    await savePage(itemId, 0, 'another');
    await new Promise((r) => setTimeout(r, 400));
    expect(at('/down')).toHaveLength(3);
    await as(suite.owner).fail('webhook/redeliver', { item_id: itemId, delivery_id: list[0].id });
    // Switched on again it delivers.
    answers.set('/down', () => 200);
    await as(suite.owner).ok('webhook/save', { item_id: itemId, id: made.id, enabled: 1 });
    await as(suite.owner).ok('webhook/redeliver', { item_id: itemId, delivery_id: list[0].id });
    await until(() => at('/down').length === 4, 'the redelivery');
  });

  test('a hook made or switched on just after an event is not sent that event', async () => {
    const itemId = await newItem();
    // Events are addressed a batch window (50 ms) after they happen: the hook below is made
    // inside that window, after the save it must not hear of.
    await savePage(itemId, 0, 'before the hook');
    const made = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: itemId,
      url: `${base}/late`,
    });
    await as(suite.owner).ok('webhook/save', { item_id: itemId, id: made.id, enabled: 0 });
    await savePage(itemId, 0, 'while it is off');
    await as(suite.owner).ok('webhook/save', { item_id: itemId, id: made.id, enabled: 1 });
    await new Promise((r) => setTimeout(r, 400));
    expect(at('/late')).toHaveLength(0);
    // What happens after it is on is sent.
    await savePage(itemId, 0, 'after the hook');
    // A new page is two events (the page, the catalog): both come, none of the earlier ones.
    await until(() => at('/late').length === 2, 'the deliveries of the later save');
    await new Promise((r) => setTimeout(r, 300));
    const events = at('/late').map((r) => (JSON.parse(r.body) as { event: string }).event);
    expect(events.sort()).toEqual(['catalog.changed', 'page.created']);
  });

  test('test message and secret rotation: the new secret signs, the old one no longer does', async () => {
    const itemId = await newItem();
    const made = await as(suite.owner).ok<{ id: number; secret: string }>('webhook/save', {
      item_id: itemId,
      url: `${base}/ping`,
    });
    const { secret } = await as(suite.owner).ok<{ secret: string }>('webhook/rotateSecret', {
      item_id: itemId,
      id: made.id,
    });
    expect(secret).not.toBe(made.secret);
    const result = await as(suite.owner).ok<Record<string, unknown>>('webhook/test', {
      item_id: itemId,
      id: made.id,
    });
    expect(result).toMatchObject({ status: 'success', response_code: 200, error: '' });
    const [got] = at('/ping');
    expect(JSON.parse(got.body)).toMatchObject({ schema: 'quire.webhook/1', event: 'ping' });
    const signature = String(got.headers['x-quire-signature']);
    expect(verify(secret, signature, got.body)).toBe(true);
    expect(verify(made.secret, signature, got.body)).toBe(false);
    const { list } = await log(itemId, made.id);
    expect(list[0]).toMatchObject({ event: 'ping', status: 'success' });
  });
});

describe('push address (user/savePushUrl)', () => {
  test("a subscriber's push address receives others' updates of the page, not their own", async () => {
    const itemId = await newItem();
    await as(suite.editor).ok('user/savePushUrl', { push_url: `${base}/push` });
    // The page's creator is subscribed to its updates.
    const created = await as(suite.editor).ok<{ page_id: number }>('page/save', {
      item_id: itemId,
      page_title: 'Pushed',
      page_content: 'v1',
    });
    const pageId = Number(created.page_id);
    await as(suite.editor).ok('page/save', {
      item_id: itemId,
      page_id: pageId,
      page_title: 'Pushed',
      page_content: 'v2 by the subscriber',
    });
    await savePage(itemId, pageId, 'v3 by the owner');
    await until(() => at('/push').length === 1, 'the push delivery');
    await new Promise((r) => setTimeout(r, 300));
    expect(at('/push')).toHaveLength(1);
    expect(JSON.parse(at('/push')[0].body)).toMatchObject({
      schema: 'quire.webhook/1',
      event: 'page.updated',
      page: { page_id: pageId },
      actor: { uid: suite.owner.uid },
    });
    await as(suite.editor).ok('user/savePushUrl', { push_url: '' });
  });

  test('among several subscribers, each address gets its delivery and a cleared address none', async () => {
    const itemId = await newItem();
    const pageId = await savePage(itemId, 0, 'v1');
    await as(suite.owner).ok('subscription/savePage', {
      page_id: pageId,
      uids: `${suite.editor.uid},${suite.reader.uid}`,
    });
    await as(suite.editor).ok('user/savePushUrl', { push_url: `${base}/push-editor` });
    await as(suite.reader).ok('user/savePushUrl', { push_url: `${base}/push-reader` });
    await savePage(itemId, pageId, 'v2');
    await until(
      () => at('/push-editor').length === 1 && at('/push-reader').length === 1,
      'both push deliveries',
    );

    await as(suite.reader).ok('user/savePushUrl', { push_url: '' });
    await savePage(itemId, pageId, 'v3');
    await until(() => at('/push-editor').length === 2, "the editor's second delivery");
    await new Promise((r) => setTimeout(r, 300));
    expect(at('/push-reader')).toHaveLength(1);
    expect(JSON.parse(at('/push-editor')[1].body)).toMatchObject({
      event: 'page.updated',
      page: { page_id: pageId },
    });
    await as(suite.editor).ok('user/savePushUrl', { push_url: '' });
  });
});

describe('webhook refusals', () => {
  test('a private address not on ALLOW_PRIVATE_HOSTS is refused and nothing is stored', async () => {
    const itemId = await newItem();
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]:80/',
    ]) {
      const answer = await as(suite.owner).fail('webhook/save', { item_id: itemId, url });
      expect(answer.error_code).toBe(10403);
    }
    expect(
      (await as(suite.owner).fail('webhook/save', { item_id: itemId, url: 'ftp://x.example/' }))
        .error_code,
    ).toBe(10101);
    expect(await as(suite.owner).ok('webhook/list', { item_id: itemId })).toEqual([]);
  });

  test('only managers: editors, readers, outsiders and visitors are refused', async () => {
    const itemId = await newItem();
    const made = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: itemId,
      url: `${base}/managers`,
    });
    for (const user of [suite.editor, suite.reader, suite.stranger]) {
      const client = as(user);
      expect((await client.fail('webhook/list', { item_id: itemId })).error_code).toBe(10303);
      expect(
        (await client.fail('webhook/save', { item_id: itemId, url: `${base}/x` })).error_code,
      ).toBe(10303);
      expect(
        (await client.fail('webhook/delete', { item_id: itemId, id: made.id })).error_code,
      ).toBe(10303);
      expect((await client.fail('webhook/test', { item_id: itemId, id: made.id })).error_code).toBe(
        10303,
      );
    }
    expect((await suite.server.api.fail('webhook/list', { item_id: itemId })).error_code).toBe(
      10102,
    );
    const admin = await makeUser();
    await addMember(itemId, admin, 2);
    expect(await as(admin).ok('webhook/list', { item_id: itemId })).toHaveLength(1);
    await as(admin).ok('webhook/delete', { item_id: itemId, id: made.id });
    expect(await as(suite.owner).ok('webhook/list', { item_id: itemId })).toEqual([]);
  });
});
