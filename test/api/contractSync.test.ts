/**
 * Live API contracts over real HTTP: an item follows an OpenAPI URL served by a local server
 * (127.0.0.1, allowed by ALLOW_PRIVATE_HOSTS as the webhook tests do). The scheduler fetches the
 * first version (one page per operation); the changed Petstore copy then, on "check now", gives
 * the expected breaking / non-breaking list, updates the pages in place (a history row, written
 * by the follower as "API contract sync"), marks the changed endpoints for readers, tells the
 * subscribers of changed pages with ONE notice, refreshes the mocks and delivers
 * `contract.changed` to a webhook receiver. CI pushes go through `open/pushSpec` with the item's
 * key. Bad input changes nothing; only managers follow.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';

const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '../fixtures/contracts', name), 'utf8');
const V1 = fixture('petstore-v1.json');
const V2 = fixture('petstore-v2.json');

let served = V1;
let specStatus = 200;
const hookBodies: string[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/hook') {
        hookBodies.push(body);
        res.end('ok');
        return;
      }
      res.statusCode = specStatus;
      res.setHeader('content-type', 'application/json');
      res.end(specStatus === 200 ? served : 'not here');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const suite = apiSuite({
  env: { ALLOW_PRIVATE_HOSTS: '127.0.0.1', CONTRACT_POLL_SECONDS: '0.2' },
});
const { as } = suite;

async function until<T>(probe: () => T | Promise<T>, what: string, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Change {
  endpoint: string;
  kind: string;
  breaking: boolean;
  field: string;
  where: string;
  removed?: string[];
}
interface Info {
  following: number;
  schedule: string;
  version_count: number;
  last_status: string;
  last_error: string;
  spec_version: string;
  last_diff: Change[];
}
interface MenuPage {
  page_id: string;
  page_title: string;
}
interface MenuCat {
  cat_name: string;
  pages: MenuPage[];
  catalogs?: MenuCat[];
}

async function pagesOf(itemId: number): Promise<Map<string, number>> {
  const info = await as(suite.owner).ok<{ menu: { pages: MenuPage[]; catalogs: MenuCat[] } }>(
    'item/info',
    { item_id: itemId },
  );
  const out = new Map<string, number>();
  const walk = (cats: MenuCat[]) => {
    for (const cat of cats) {
      for (const p of cat.pages) out.set(`${cat.cat_name}/${p.page_title}`, Number(p.page_id));
      walk(cat.catalogs ?? []);
    }
  };
  walk(info.menu.catalogs);
  return out;
}

const summary = (changes: Change[]) =>
  changes.map((c) =>
    `${c.breaking ? 'B' : '-'} ${c.endpoint} ${c.kind} ${c.field || c.where}`.trimEnd(),
  );

describe('following an OpenAPI URL', () => {
  let itemId = 0;
  let pages = new Map<string, number>();

  beforeAll(async () => {
    itemId = (await makeItem(suite.owner, { password: 'members-only' })).item_id;
    await addMember(itemId, suite.editor, 1);
    await addMember(itemId, suite.reader, 0);
  });

  test('only managers follow; a bad URL or schedule is refused and nothing is stored', async () => {
    const refused = await as(suite.editor).fail('apiContract/follow', {
      item_id: itemId,
      url: `${base}/openapi.json`,
    });
    expect(refused.error_code).not.toBe(0);
    const bad = await as(suite.owner).fail('apiContract/follow', {
      item_id: itemId,
      url: 'ftp://example.com/spec.json',
    });
    expect(bad.error_message).toMatch(/http or https/);
    const schedule = await as(suite.owner).fail('apiContract/follow', {
      item_id: itemId,
      url: `${base}/openapi.json`,
      schedule: 'weekly-ish',
    });
    expect(schedule.error_message).toMatch(/schedule/);
    const info = await as(suite.owner).ok<Info>('apiContract/info', { item_id: itemId });
    expect(info).toMatchObject({ following: 0, version_count: 0 });
  });

  test('the scheduler fetches the first version and makes one page per operation', async () => {
    const followed = await as(suite.owner).ok<Info>('apiContract/follow', {
      item_id: itemId,
      url: `${base}/openapi.json`,
      schedule: 'hourly',
    });
    expect(followed).toMatchObject({ following: 1, schedule: 'hourly' });
    const info = await until(async () => {
      const now = await as(suite.owner).ok<Info>('apiContract/info', { item_id: itemId });
      return now.version_count === 1 ? now : null;
    }, 'the first scheduled fetch');
    expect(info).toMatchObject({ last_status: 'first', spec_version: '1.0.11', last_diff: [] });
    pages = await pagesOf(itemId);
    expect(pages.size).toBe(19);
    expect(pages.has('pet/Finds Pets by status')).toBe(true);
  });

  test('the changed copy on "check now": the expected diff, pages, marks, one notice, the webhook', async () => {
    const byStatus = pages.get('pet/Finds Pets by status')!;
    const byId = pages.get('pet/Find pet by ID')!;
    const inventory = pages.get('store/Returns pet inventories by status')!;
    // The reader is subscribed to two changed pages and an unchanged one: still one notice.
    for (const pageId of [byStatus, byId, inventory])
      await as(suite.owner).ok('subscription/savePage', {
        page_id: pageId,
        uids: String(suite.reader.uid),
      });
    await as(suite.owner).ok('webhook/save', {
      item_id: itemId,
      url: `${base}/hook`,
      events: 'contract.changed',
    });
    const before = await as(suite.reader).ok<{ total: number }>('message/getRemindList', {});
    // No page carries a mark yet: item/info tells the reader not to ask for marks.
    const flag = async () =>
      (await as(suite.reader).ok<{ api_contract_marks: number }>('item/info', { item_id: itemId }))
        .api_contract_marks;
    expect(await flag()).toBe(0);

    served = V2;
    const result = await as(suite.owner).ok<{
      status: string;
      version: string;
      changes: Change[];
      pages_created: number;
      pages_updated: number;
    }>('apiContract/check', { item_id: itemId });
    expect(result).toMatchObject({ status: 'changed', version: '1.4.0', pages_created: 1 });
    expect(summary(result.changes.filter((c) => c.breaking)).sort()).toEqual([
      'B DELETE /store/order/{orderId} endpoint.removed',
      'B GET /pet/findByStatus parameter.required query parameter status',
      'B POST /pet enum.changed status',
      'B PUT /pet enum.changed status',
    ]);
    const nonBreaking = summary(result.changes.filter((c) => !c.breaking));
    expect(nonBreaking).toEqual(
      expect.arrayContaining([
        '- GET /pet/{petId}/vaccinations endpoint.added',
        '- POST /pet field.added birthDate',
        '- GET /pet/{petId} field.added birthDate',
        '- GET /pet/{petId} enum.changed status',
        '- GET /pet/findByStatus field.added [].birthDate',
      ]),
    );
    // Breaking first.
    const firstNonBreaking = result.changes.findIndex((c) => !c.breaking);
    expect(result.changes.slice(firstNonBreaking).every((c) => !c.breaking)).toBe(true);
    expect(result.changes.find((c) => c.kind === 'enum.changed')?.removed).toEqual(['pending']);
    // PUT /pet, POST /pet, findByStatus, findByTags, getPetById: their tables changed.
    expect(result.pages_updated).toBe(5);

    // The page was updated in place: one history row (the version before), the new text.
    const history = await as(suite.owner).ok<unknown[]>('page/history', { page_id: byStatus });
    expect(history).toHaveLength(1);
    const page = await as(suite.owner).ok<{ author_uid: string }>('page/info', {
      page_id: byStatus,
    });
    expect(Number(page.author_uid)).toBe(suite.owner.uid);
    const after = await pagesOf(itemId);
    expect(after.has('pet/Lists a pet’s vaccinations')).toBe(true);

    // The reader sees the marks; an unchanged page has none.
    expect(await flag()).toBe(1);
    const { mark } = await as(suite.reader).ok<{
      mark: { version: string; breaking: number; changes: Change[] };
    }>('apiContract/mark', { page_id: byStatus });
    expect(mark).toMatchObject({ version: '1.4.0', breaking: 1 });
    expect(mark.changes.map((c) => c.kind)).toContain('parameter.required');
    const soft = await as(suite.reader).ok<{ mark: { breaking: number } }>('apiContract/mark', {
      page_id: byId,
    });
    expect(soft.mark.breaking).toBe(0);
    expect(await as(suite.reader).ok('apiContract/mark', { page_id: inventory })).toEqual({
      mark: null,
    });
    expect(
      (await as(suite.stranger).fail('apiContract/mark', { page_id: byStatus })).error_code,
    ).not.toBe(0);

    // ONE notice with the digest.
    const notices = await as(suite.reader).ok<{
      total: number;
      list: { message_content: string }[];
    }>('message/getRemindList', {});
    expect(notices.total).toBe(before.total + 1);
    expect(notices.list[0].message_content).toContain('1.0.11 → 1.4.0');
    expect(notices.list[0].message_content).toContain('4 breaking');

    // The mock of the new endpoint answers its example.
    const vaccinations = after.get('pet/Lists a pet’s vaccinations')!;
    const mock = await as(suite.owner).ok<{ path: string }>('mock/infoByPageId', {
      page_id: vaccinations,
    });
    expect(mock.path).toBe('~/pet/[^/]+/vaccinations');

    // The webhook gets contract.changed with the changes.
    const delivered = await until(() => hookBodies[0], 'the contract.changed delivery');
    const body = JSON.parse(delivered) as {
      event: string;
      contract: { version: string; previous_version: string; breaking: number; changes: Change[] };
    };
    expect(body.event).toBe('contract.changed');
    expect(body.contract).toMatchObject({
      version: '1.4.0',
      previous_version: '1.0.11',
      breaking: 4,
    });
    expect(body.contract.changes[0].breaking).toBe(true);

    const info = await as(suite.owner).ok<Info>('apiContract/info', { item_id: itemId });
    expect(info).toMatchObject({ last_status: 'changed', version_count: 2, spec_version: '1.4.0' });
    expect(info.last_diff).toHaveLength(result.changes.length);
  });

  test('an unreachable document is recorded as an error and changes nothing', async () => {
    specStatus = 404;
    const failed = await as(suite.owner).fail('apiContract/check', { item_id: itemId });
    expect(failed.error_message).toMatch(/HTTP 404/);
    const info = await as(suite.owner).ok<Info>('apiContract/info', { item_id: itemId });
    expect(info).toMatchObject({ last_status: 'error', version_count: 2, spec_version: '1.4.0' });
    specStatus = 200;
  });

  test('CI pushes with the item key: the same version is unchanged, the old one is a change back', async () => {
    const key = await as(suite.owner).ok<{ api_key: string; api_token: string }>('item/getKey', {
      item_id: itemId,
    });
    const wrong = await suite.server.api.fail('open/pushSpec', {
      api_key: key.api_key,
      api_token: 'nope',
      spec: V1,
    });
    expect(wrong.error_code).toBe(10306);
    const same = await suite.server.api.ok<{ status: string }>('open/pushSpec', {
      ...key,
      spec: V2,
    });
    expect(same.status).toBe('unchanged');
    const back = await suite.server.api.ok<{ status: string; changes: Change[] }>('open/pushSpec', {
      ...key,
      spec: V1,
    });
    expect(back.status).toBe('changed');
    expect(summary(back.changes)).toContain('B GET /pet/{petId}/vaccinations endpoint.removed');
    const notJson = await suite.server.api.fail('open/pushSpec', { ...key, spec: '{nope' });
    expect(notJson.error_message).toMatch(/not valid JSON/);
  });
});
