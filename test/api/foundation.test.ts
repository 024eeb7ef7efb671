/**
 * The HTTP foundation over real HTTP against a running Quire: health, the ShowDoc transport (URL
 * forms, name matching, methods, parameter precedence, envelope, errors, limits, hostile input),
 * request logging, the web app's SPA fallback and the Socket.IO endpoint.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { defineController } from '../../api/registry';
import { ApiError } from '../../models/platform/errors';
import { BROWSER_UA } from '../helpers/client';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/** A controller that reports what the transport handed it. */
const probe = defineController('quireProbe', {
  echo: (ctx) => ({
    controller: ctx.controller,
    action: ctx.action,
    method: ctx.req.method,
    params: ctx.params.all(),
    token: ctx.token(),
  }),
  typed: (ctx) => ({
    name: ctx.params.str('name'),
    count: ctx.params.int('count', -1),
    flag: ctx.params.bool('flag'),
    ids: ctx.params.list('ids'),
  }),
  nothing: () => undefined,
  denied: () => {
    throw new ApiError(10303);
  },
  explode: () => {
    throw new Error('database exploded at /secret/path');
  },
});

let server: TestServer;
let webDir: string;

beforeAll(async () => {
  webDir = await makeTempDir('quire-web-');
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><div id="root">quire app shell</div>',
  );
  fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  server = await startTestServer({ controllers: [probe], webDistDir: webDir });
});

afterAll(async () => {
  await server.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('health', () => {
  test('GET /healthz answers 200 with the database status once ready', async () => {
    const res = await server.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: { mode: 'embedded', state: 'up' } });
  });
});

describe('ShowDoc URL forms and names', () => {
  test.each(['api', 'server', 'index.php'] as const)(
    'the %s form reaches the action',
    async (form) => {
      const data = await server.api.ok<{ action: string }>('quireProbe/echo', {}, { form });
      expect(data.action).toBe('echo');
    },
  );

  test.each(['quireProbe', 'QuireProbe', 'quire_probe', 'QUIREPROBE'])(
    'controller spelled %s matches',
    async (controller) => {
      const data = await server.api.ok<{ controller: string }>(`${controller}/echo`);
      expect(data.controller).toBe(controller);
    },
  );

  test('action names match case-insensitively', async () => {
    await expect(server.api.ok('quireProbe/ECHO')).resolves.toBeDefined();
    await expect(server.api.ok('quireProbe/Echo')).resolves.toBeDefined();
  });

  test.each(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'])(
    '%s is accepted on every route',
    async (method) => {
      const data = await server.api.ok<{ method: string }>(
        'quireProbe/echo',
        { a: '1' },
        { method },
      );
      expect(data.method).toBe(method);
    },
  );

  test('unknown controller or action → HTTP 404 {10404, "Invalid request"}', async () => {
    for (const route of ['nosuch/thing', 'quireProbe/nosuch']) {
      const res = await server.api.call(route);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error_code: 10404, error_message: 'Invalid request' });
    }
    const other = await server.request('/server/index.php?s=/home/index/index');
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error_code: 10404, error_message: 'Invalid request' });
  });

  test('a route without an action → HTTP 400 {10400}', async () => {
    const res = await server.request('/api/quireProbe', { method: 'POST' });
    expect(res.status).toBe(400);
    expect((await res.json()).error_code).toBe(10400);
    const empty = await server.request('/server/index.php');
    expect(empty.status).toBe(400);
  });

  test('a crawler user agent gets a plain 403 before routing', async () => {
    for (const ua of ['Mozilla/5.0 HeadlessChrome/126.0', 'Googlebot/2.1', 'Scrapy/2.11']) {
      const res = await server.request('/api/quireProbe/echo', { headers: { 'user-agent': ua } });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    }
    const browser = await server.request('/api/quireProbe/echo', {
      headers: { 'user-agent': BROWSER_UA },
    });
    expect(browser.status).toBe(200);
  });
});

describe('parameters', () => {
  test('lookup order is path segment → body → query string', async () => {
    const res = await server.request(
      '/api/quireProbe/echo/a/from-path?a=from-query&b=from-query&c=from-query',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=from-body&b=from-body',
      },
    );
    const body = await res.json();
    expect(body.data.params).toMatchObject({ a: 'from-path', b: 'from-body', c: 'from-query' });
  });

  test('the `s` of index.php?s= is the route, not a parameter; other query fields are', async () => {
    const res = await server.request('/server/index.php?s=/api/quireProbe/echo/k/v&x=1');
    const body = await res.json();
    expect(body.data.params).toEqual({ k: 'v', x: '1' });
  });

  test('form and JSON bodies are both read, with PHP-style arrays in forms', async () => {
    const form = await server.api.ok<{ ids: string[]; name: string }>('quireProbe/typed', {
      name: 'x',
      ids: ['1', '2'],
    });
    expect(form).toMatchObject({ name: 'x', ids: ['1', '2'] });
    const json = await server.api.ok<{ ids: string[]; count: number; flag: boolean }>(
      'quireProbe/typed',
      { ids: [3, 4], count: 7, flag: true },
      { json: true },
    );
    expect(json).toMatchObject({ ids: ['3', '4'], count: 7, flag: true });
  });

  test('integers are read PHP-style and booleans accept the ShowDoc words', async () => {
    const data = await server.api.ok('quireProbe/typed', {
      count: '12abc',
      flag: 'on',
      ids: '5,6',
    });
    expect(data).toMatchObject({ count: 12, flag: true, ids: ['5', '6'] });
    const fallback = await server.api.ok('quireProbe/typed', { count: 'abc', flag: 'no' });
    expect(fallback).toMatchObject({ count: -1, flag: false });
  });

  test('an operator object where a string is expected is refused with 10101', async () => {
    const answer = await server.api.fail('quireProbe/typed', { name: { $ne: '' } }, { json: true });
    expect(answer).toMatchObject({ status: 200, error_code: 10101 });
    const form = await server.request('/api/quireProbe/typed', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name[$ne]=',
    });
    expect((await form.json()).error_code).toBe(10101);
  });

  test('__proto__, constructor and prototype keys are stripped and pollute nothing', async () => {
    const res = await server.request(
      '/api/quireProbe/echo?__proto__[polluted]=1&constructor[prototype][bad]=1',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"bad": 1}}, "ok": {"prototype": 1, "x": 2}}',
      },
    );
    const body = await res.json();
    expect(body.data.params).toEqual({ ok: { x: 2 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).bad).toBeUndefined();
  });

  test('the token comes from X-API-Token, then Authorization: Bearer, then user_token', async () => {
    const all = { 'x-api-token': 'from-header', authorization: 'Bearer from-bearer' };
    const a = await server.api.ok<{ token: string }>(
      'quireProbe/echo',
      { user_token: 'from-param' },
      { headers: all },
    );
    expect(a.token).toBe('from-header');
    const b = await server.api.ok<{ token: string }>(
      'quireProbe/echo',
      { user_token: 'from-param' },
      { headers: { authorization: 'Bearer from-bearer' } },
    );
    expect(b.token).toBe('from-bearer');
    const c = await server.api.ok<{ token: string }>('quireProbe/echo', {
      user_token: 'from-param',
    });
    expect(c.token).toBe('from-param');
  });
});

describe('envelope and errors', () => {
  test('success is {error_code: 0, data}, and an empty payload is []', async () => {
    const res = await server.api.call('quireProbe/nothing');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error_code: 0, data: [] });
  });

  test('a business error is HTTP 200 {error_code, error_message} with the table text and no data', async () => {
    const res = await server.api.call('quireProbe/denied');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error_code: 10303, error_message: 'No edit permission' });
  });

  test('an unexpected error is a 500 envelope without stack or internals', async () => {
    const res = await server.request('/api/quireProbe/explode');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error_code: 10500, error_message: 'Internal error' });
    expect(text).not.toMatch(/secret|at \w+ \(/);
  });

  test('a body over the limit gets a 413 envelope, not HTML', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 10);
    for (const [type, body] of [
      ['application/json', JSON.stringify({ content: big })],
      ['application/x-www-form-urlencoded', `content=${big}`],
    ]) {
      const res = await server.request('/api/quireProbe/echo', {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ error_code: 10101 });
    }
  });

  test('malformed JSON gets a 400 envelope', async () => {
    const res = await server.request('/api/quireProbe/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error_code: 10101,
      error_message: 'Malformed request body',
    });
  });
});

describe('request logs', () => {
  test('one line per request with method, path, status and duration — no query, token, password or body', async () => {
    const user = await makeUser();
    await server.api
      .withToken(user.user_token)
      .call('quireProbe/echo/user_token/' + user.user_token, {
        password: 'hunter2-secret',
        page_content: 'SECRET-CONTENT',
      });
    await server.request(`/user/loginByUserToken?user_token=${user.user_token}`);

    const lines = server.logs.filter((l) => l.msg === 'request');
    const api = lines.find((l) => l.path === '/api/quireProbe/echo');
    expect(api).toMatchObject({ method: 'POST', status: 200 });
    expect(typeof api!.ms).toBe('number');
    expect(lines.find((l) => l.path === '/user/loginByUserToken')).toMatchObject({
      method: 'GET',
      status: 200,
    });

    const text = server.logText();
    expect(text).not.toContain(user.user_token);
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('SECRET-CONTENT');
    expect(text).not.toContain('?');
  });
});

describe('web app and realtime endpoint', () => {
  test('deep links get the app shell (SPA fallback), revalidated on every load', async () => {
    for (const route of ['/', '/user/login', '/123/456']) {
      const res = await server.request(route);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('quire app shell');
    }
  });

  test('hashed assets are served with a long cache; a missing asset is a 404, not the app', async () => {
    const asset = await server.request('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await server.request('/assets/missing-000.js');
    expect(missing.status).toBe(404);
  });

  test('Socket.IO answers its handshake at /socket.io', async () => {
    const res = await server.request('/socket.io/?EIO=4&transport=polling');
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^0\{"sid":/);
  });
});
