/**
 * Reused answers (api/answerCache.ts) over real HTTP: a repeated page/info is served from memory
 * exactly as it was built, and never once anything it was read from changed — a save, a member
 * removed, a logout, a token's expiry —, never to another caller, never for a visit-password
 * attempt; off with ANSWER_CACHE_MB=0.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import { UserToken } from '../../models/accounts/schemas/userToken';
import { nextId } from '../../models/platform';
import { nowSeconds } from '../../models/platform/time';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { BROWSER_UA } from '../helpers/client';

const suite = apiSuite({ item: {} });
/** An item with a visit password: only members (or the password) read it. */
const PRIVATE = { password: 'visit-pw' };
const { as } = suite;

function stats(server: TestServer = suite.server) {
  const answers = server.quire.answers;
  if (!answers) throw new Error('the server has no answer cache');
  return answers.stats();
}

/** A raw page/info as ShowDoc's web client sends it: the body text and the headers. */
async function rawInfo(
  server: TestServer,
  token: string,
  pageId: number,
  extra: Record<string, string> = {},
) {
  const response = await fetch(`${server.url}/api/page/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA },
    body: new URLSearchParams({ page_id: String(pageId), user_token: token, ...extra }).toString(),
  });
  const headers = Object.fromEntries(response.headers);
  delete headers.date;
  return { status: response.status, text: await response.text(), headers };
}

/** Reads until an answer was served from memory (the first reads may load caches: not kept). */
async function readUntilServed(server: TestServer, token: string, pageId: number) {
  for (let i = 0; i < 6; i++) {
    const before = stats(server).hits;
    const answer = await rawInfo(server, token, pageId);
    if (stats(server).hits > before) return answer;
  }
  throw new Error(`page/info of ${pageId} was never served from memory`);
}

/** One page/info and whether it was served from memory. */
async function infoOnce(token: string, pageId: number) {
  const before = stats().hits;
  const answer = await rawInfo(suite.server, token, pageId);
  return { answer, served: stats().hits > before, body: JSON.parse(answer.text) };
}

describe('a repeated page/info', () => {
  test('is served from memory, byte for byte and with the same headers as when it was built', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'Kept <b>"answer"</b> & é' });
    const built = await rawInfo(suite.server, suite.reader.user_token, page.page_id);
    expect(JSON.parse(built.text)).toMatchObject({
      error_code: 0,
      data: { page_id: String(page.page_id) },
    });
    const served = await readUntilServed(suite.server, suite.reader.user_token, page.page_id);
    expect(served.status).toBe(200);
    expect(served.text).toBe(built.text);
    expect(served.headers).toEqual(built.headers);
    expect(served.headers['cache-control']).toBe('no-store');
    expect(served.headers['content-security-policy']).toContain("default-src 'self'");
    expect(stats().answers).toBeGreaterThan(0);
  });

  test('shows a save at once: the kept answer is not served after the page changed', async () => {
    const page = await makePage(suite.owner, suite.itemId, { title: 'Before', content: 'old' });
    await readUntilServed(suite.server, suite.reader.user_token, page.page_id);
    await as(suite.editor).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'After',
      page_content: 'new text',
    });
    const { body, served } = await infoOnce(suite.reader.user_token, page.page_id);
    expect(served).toBe(false);
    expect(body.data).toMatchObject({ page_title: 'After', page_content: 'new text' });
  });

  test('stays served while the text of other pages of its item is saved', async () => {
    const [kept, other] = [
      await makePage(suite.owner, suite.itemId, { content: 'kept' }),
      await makePage(suite.owner, suite.itemId, { title: 'Other', content: 'other' }),
    ];
    const before = await readUntilServed(suite.server, suite.reader.user_token, kept.page_id);
    // The same title: the menu is unchanged (a new title drops the item's pages, and their answers).
    await as(suite.editor).ok('page/save', {
      page_id: other.page_id,
      item_id: suite.itemId,
      page_title: 'Other',
      page_content: 'changed',
    });
    const after = await infoOnce(suite.reader.user_token, kept.page_id);
    expect(after.served).toBe(true);
    expect(after.answer.text).toBe(before.text);
  });

  test('is refused at once to a member who was removed, and to a token that logged out', async () => {
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    const [leaver, quitter] = [await makeUser(), await makeUser()];
    const leaverRow = await addMember(item_id, leaver, 0);
    await addMember(item_id, quitter, 0);
    const page = await makePage(suite.owner, item_id);
    await readUntilServed(suite.server, leaver.user_token, page.page_id);
    await readUntilServed(suite.server, quitter.user_token, page.page_id);

    await as(suite.owner).ok('member/delete', { item_id, item_member_id: leaverRow });
    const removed = await infoOnce(leaver.user_token, page.page_id);
    expect(removed.served).toBe(false);
    expect(removed.body.error_code).not.toBe(0);

    await as(quitter).ok('user/logout');
    const loggedOut = await infoOnce(quitter.user_token, page.page_id);
    expect(loggedOut.served).toBe(false);
    expect(loggedOut.body.error_code).not.toBe(0);
  });

  test('is never served to another caller: a stranger still gets the refusal', async () => {
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    await addMember(item_id, suite.reader, 0);
    const page = await makePage(suite.owner, item_id);
    const readers = await readUntilServed(suite.server, suite.reader.user_token, page.page_id);
    expect(JSON.parse(readers.text).error_code).toBe(0);
    for (let i = 0; i < 3; i++) {
      const stranger = await infoOnce(suite.stranger.user_token, page.page_id);
      expect(stranger.served).toBe(false);
      expect(stranger.body.error_code).not.toBe(0);
      const anonymous = await infoOnce('', page.page_id);
      expect(anonymous.served).toBe(false);
      expect(anonymous.body.error_code).not.toBe(0);
    }
  });

  test('stops at the second its token expires, though nothing was written', async () => {
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    const user: TestUser = await makeUser();
    await addMember(item_id, user, 0);
    const page = await makePage(suite.owner, item_id);
    const token = randomBytes(16).toString('hex');
    const expiresAt = nowSeconds() + 3;
    await UserToken.create({
      id: await nextId('user_token_id'),
      uid: user.uid,
      token,
      token_expire: expiresAt,
      ip: '',
      addtime: nowSeconds(),
    });
    await readUntilServed(suite.server, token, page.page_id);
    while (nowSeconds() < expiresAt) await new Promise((resolve) => setTimeout(resolve, 100));
    const expired = await infoOnce(token, page.page_id);
    expect(expired.served).toBe(false);
    expect(expired.body.error_code).not.toBe(0);
  });

  test('with a visit password is built every time (the attempt throttle counts each one)', async () => {
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    const page = await makePage(suite.owner, item_id);
    const keptBefore = stats().kept;
    for (let i = 0; i < 3; i++) {
      const before = stats().hits;
      const answer = await rawInfo(suite.server, '', page.page_id, { _item_pwd: 'visit-pw' });
      expect(JSON.parse(answer.text)).toMatchObject({ error_code: 0 });
      expect(stats().hits).toBe(before);
    }
    expect(stats().kept).toBe(keptBefore);
  });

  test('by GET, and a public page read anonymously, are served from memory too', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    let served = false;
    for (let i = 0; i < 6 && !served; i++) {
      const before = stats().hits;
      const answer = await suite.server.api.call(
        'page/info',
        { page_id: page.page_id },
        { method: 'GET' },
      );
      expect(answer.body).toMatchObject({ error_code: 0, data: { page_id: String(page.page_id) } });
      served = stats().hits > before;
    }
    expect(served).toBe(true);
  });

  test("in every URL form ShowDoc's clients use, the web client's index.php?s= included", async () => {
    const page = await makePage(suite.owner, suite.itemId);
    for (const form of ['server', 'index.php'] as const) {
      let served = false;
      for (let i = 0; i < 6 && !served; i++) {
        const before = stats().hits;
        expect(
          await as(suite.reader).ok('page/info', { page_id: page.page_id }, { form }),
        ).toMatchObject({ page_id: String(page.page_id) });
        served = stats().hits > before;
      }
      expect({ form, served }).toEqual({ form, served: true });
    }
    // An `s` that is not one route is refused as before, and never answered from memory.
    const before = stats().hits;
    const twice = await fetch(
      `${suite.server.url}/server/index.php?s=/api/page/info&s=/api/item/info`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA },
        body: new URLSearchParams({
          page_id: String(page.page_id),
          user_token: suite.reader.user_token,
        }).toString(),
      },
    );
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ error_code: 10400 });
    expect(stats().hits).toBe(before);
  });
});

describe('a repeated item/info', () => {
  /** item/info as the reader sends it, and whether it was served from memory. */
  async function itemInfoOnce(user: TestUser, itemId: number) {
    const before = stats().hits;
    const data = await as(user).ok<{
      menu: { pages: Array<{ page_title: string }> };
      show_watermark: number;
    }>('item/info', { item_id: itemId, keyword: '', default_page_id: 0 });
    return { data, served: stats().hits > before };
  }

  async function itemInfoUntilServed(user: TestUser, itemId: number) {
    for (let i = 0; i < 6; i++) {
      const answer = await itemInfoOnce(user, itemId);
      if (answer.served) return answer.data;
    }
    throw new Error(`item/info of ${itemId} was never served from memory`);
  }

  test('shows a renamed page, a new page and a site setting at once', async () => {
    const admin = await makeUser({ admin: true });
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    await addMember(item_id, suite.reader, 0);
    const page = await makePage(suite.owner, item_id, { title: 'Old title' });
    const titles = (data: { menu: { pages: Array<{ page_title: string }> } }) =>
      data.menu.pages.map((p) => p.page_title);
    expect(titles(await itemInfoUntilServed(suite.reader, item_id))).toEqual(['Old title']);

    await as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id,
      page_title: 'New title',
      page_content: 'x',
    });
    const renamed = await itemInfoOnce(suite.reader, item_id);
    expect(renamed.served).toBe(false);
    expect(titles(renamed.data)).toEqual(['New title']);

    await itemInfoUntilServed(suite.reader, item_id);
    await makePage(suite.owner, item_id, { title: 'Second page' });
    const added = await itemInfoOnce(suite.reader, item_id);
    expect(added.served).toBe(false);
    expect(titles(added.data).sort()).toEqual(['New title', 'Second page']);

    const watermark = (await itemInfoUntilServed(suite.reader, item_id)).show_watermark;
    await as(admin).ok('adminSetting/saveConfig', { show_watermark: watermark ? 0 : 1 });
    try {
      const changed = await itemInfoOnce(suite.reader, item_id);
      expect(changed.served).toBe(false);
      expect(changed.data.show_watermark).toBe(watermark ? 0 : 1);
    } finally {
      await as(admin).ok('adminSetting/saveConfig', { show_watermark: watermark });
    }
  });

  test('with a keyword searches every time', async () => {
    const { item_id } = await makeItem(suite.owner, PRIVATE);
    await addMember(item_id, suite.reader, 0);
    await makePage(suite.owner, item_id, { title: 'Searchable', content: 'needle here' });
    const keptBefore = stats().kept;
    for (let i = 0; i < 3; i++) {
      const before = stats().hits;
      await as(suite.reader).ok('item/info', { item_id, keyword: 'needle' });
      expect(stats().hits).toBe(before);
    }
    expect(stats().kept).toBe(keptBefore);
  });
});

describe('ANSWER_CACHE_MB', () => {
  test('0 builds every answer; on, a served answer is logged like any other request', async () => {
    const off = await startTestServer({ env: { ANSWER_CACHE_MB: '0', LOG_LEVEL: 'silent' } });
    const on = await startTestServer({ env: { LOG_LEVEL: 'info' } });
    try {
      const tokens: string[] = [];
      for (const server of [off, on]) {
        const owner = await server.quire.run(() => makeUser());
        tokens.push(owner.user_token);
        const { item_id } = await server.quire.run(() => makeItem(owner));
        const page = await server.quire.run(() => makePage(owner, item_id));
        for (let i = 0; i < 4; i++) {
          const answer = await rawInfo(server, owner.user_token, page.page_id);
          expect(JSON.parse(answer.text).error_code).toBe(0);
        }
      }
      expect(stats(off)).toMatchObject({ hits: 0, kept: 0, answers: 0 });
      expect(stats(on).hits).toBeGreaterThan(0);
      const lines = on.logs.filter((line) => line.msg === 'request');
      expect(lines.filter((line) => line.path === '/api/page/info')).toHaveLength(4);
      for (const line of lines.filter((l) => l.path === '/api/page/info'))
        expect(line).toMatchObject({ method: 'POST', status: 200 });
      // The route is logged, never the body that carried the token.
      expect(on.logText()).not.toContain(tokens[1]);
    } finally {
      await off.stop();
      await on.stop();
    }
  });
});
