/**
 * Every registered action (read from the route table, no hand list) gets hostile bodies: cut,
 * oversized and garbled multipart, JSON and form bodies, garbage queries, wrong content types,
 * huge headers and slow bodies. Each must be answered — the ShowDoc envelope or a clean 4xx —
 * never a 5xx, a hang or a cut connection, and the server must stay healthy throughout.
 *
 * Requests go over raw sockets so the bytes are exactly the hostile ones (fetch would fix up
 * lengths and headers). The generator is seeded, so a failure replays identically.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createControllerRegistry } from '../../api/routes';
import { issueToken } from '../../models/accounts/users';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let user: TestUser;
let itemId = 0;
let pageId = 0;

beforeAll(async () => {
  // A small body limit keeps the "oversized" bodies cheap to send.
  server = await startTestServer({ env: { BODY_LIMIT: '64kb', LOG_LEVEL: 'silent' } });
  user = await makeUser({ username: 'fuzzer' });
  const item = await makeItem(user);
  itemId = item.item_id;
  pageId = (await makePage(user, itemId, { title: 'Fuzzed' })).page_id;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Answer {
  status: number;
  head: string;
  body: string;
}

/**
 * Writes the head, then each chunk (with a pause before it when `pauseMs`), and reads the whole
 * answer. A connection closed without a status line, or no answer in time, rejects.
 */
function send(
  head: string,
  chunks: (string | Buffer)[],
  options: { pauseMs?: number; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms to:\n${head}`));
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk) => received.push(chunk));
    // A reset after the answer was written (the server refusing the rest of a body) is fine.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (!match) return reject(new Error(`connection closed without an answer to:\n${head}`));
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(match[1]),
        head: text.slice(0, split),
        body: text.slice(split + 4),
      });
    });
    socket.write(head);
    void (async () => {
      for (const chunk of chunks) {
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
        if (socket.destroyed) return;
        socket.write(chunk);
      }
    })();
  });
}

function request(
  target: string,
  headers: Record<string, string | number>,
  body: string | Buffer,
  options?: { pauseMs?: number; chunks?: number },
): Promise<Answer> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  const lines = Object.entries({
    Host: '127.0.0.1',
    Connection: 'close',
    'Content-Length': bytes.length,
    ...headers,
  }).map(([k, v]) => `${k}: ${v}`);
  const head = `POST ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
  const parts = options?.chunks ?? 1;
  const size = Math.ceil(bytes.length / parts) || 1;
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return send(head, chunks, options);
}

function garbage(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(Math.floor(next() * 256));
  return text;
}

/** Values that tend to break parameter parsing, typed every which way. */
const HOSTILE_VALUES: unknown[] = [
  { $gt: '' },
  ['1', '2'],
  { __proto__: { polluted: 1 } },
  '1e309',
  '-1',
  '0x10',
  '9'.repeat(40),
  '',
  null,
  true,
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '\u0000\uffff\ud800',
];

type Case = { name: string; run: (target: string) => Promise<Answer> };

function casesFor(token: string, seed: number): Case[] {
  const next = random(seed);
  const pick = () => HOSTILE_VALUES[Math.floor(next() * HOSTILE_VALUES.length)];
  const json = (body: unknown) => JSON.stringify(body);
  const boundary = '----fuzz' + Math.floor(next() * 1e9);
  const multipart = (fields: Record<string, string>, file: boolean) =>
    Object.entries(fields)
      .map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      )
      .join('') +
    (file
      ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n` +
        `Content-Type: image/png\r\n\r\n${garbage(next, 200)}\r\n`
      : '');
  const known = { user_token: token, item_id: String(itemId), page_id: String(pageId) };
  return [
    {
      name: 'multipart cut mid-file',
      run: (t) =>
        request(
          t,
          { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
          multipart(known, true),
        ),
    },
    {
      name: 'multipart with a boundary that never appears',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'multipart/form-data; boundary=nothere' },
          multipart(known, true) + `--${boundary}--\r\n`,
        ),
    },
    {
      name: 'multipart without a boundary',
      run: (t) => request(t, { 'Content-Type': 'multipart/form-data' }, garbage(next, 300)),
    },
    {
      name: 'oversized JSON',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/json' },
          json({ ...known, page_content: 'x'.repeat(70 * 1024) }),
        ),
    },
    {
      name: 'truncated JSON',
      run: (t) => request(t, { 'Content-Type': 'application/json' }, json(known).slice(0, 30)),
    },
    {
      name: 'JSON with hostile values for every known parameter',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/json' },
          json({
            user_token: token,
            item_id: pick(),
            page_id: pick(),
            cat_id: pick(),
            username: pick(),
            password: pick(),
            page_content: pick(),
            member_group_id: pick(),
            data: pick(),
            keyword: pick(),
          }),
        ),
    },
    {
      name: 'deeply nested JSON',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/json' },
          '{"user_token":"' + token + '","item_id":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
        ),
    },
    {
      // Fields the actions read as JSON text (catalog trees, sort maps, mock templates, lists):
      // the depth bound must hold for JSON inside a form too, not only for JSON bodies.
      name: 'form fields holding JSON nested 10,000 deep',
      run: (t) => {
        const deep = '['.repeat(10_000) + ']'.repeat(10_000);
        // Three of them fit the 64 kB body limit; the fourth field rotates through the rest.
        const more = ['page_content', 'uids', 'ext_info', 'data', 'item_ids'][
          Math.floor(next() * 5)
        ];
        return request(
          t,
          { 'Content-Type': 'application/x-www-form-urlencoded' },
          `user_token=${token}&item_id=${itemId}&page_id=${pageId}&cats=${deep}&pages=${deep}&` +
            `template=${deep}&${more}=${'['.repeat(1000)}`,
        );
      },
    },
    {
      name: 'form with PHP arrays, operators and broken escapes',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/x-www-form-urlencoded' },
          `user_token=${token}&item_id[]=1&item_id[$ne]=2&page_id[a][b][c]=1&cat_id=%ZZ&` +
            `__proto__[x]=1&constructor[prototype][y]=1&page_content=${encodeURIComponent(garbage(next, 200))}`,
        ),
    },
    {
      name: 'oversized form',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/x-www-form-urlencoded' },
          `user_token=${token}&page_content=${'y'.repeat(70 * 1024)}`,
        ),
    },
    {
      name: 'garbage query string',
      run: (t) =>
        request(
          `${t}${t.includes('?') ? '&' : '?'}item_id=%ZZ&page_id=1e309&a[` +
            `${'['.repeat(50)}=1&__proto__[z]=1&user_token=${token}`,
          {},
          '',
        ),
    },
    {
      name: 'wrong content type',
      run: (t) => request(t, { 'Content-Type': 'application/xml' }, `<x>${garbage(next, 100)}</x>`),
    },
    {
      name: 'binary body labelled as form',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/x-www-form-urlencoded; charset=koi8-r' },
          garbage(next, 500),
        ),
    },
    {
      name: 'huge header',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/json', Cookie: 'a='.padEnd(40 * 1024, 'z') },
          json(known),
        ),
    },
    {
      name: 'slow form body in small pieces',
      run: (t) =>
        request(
          t,
          { 'Content-Type': 'application/x-www-form-urlencoded' },
          `user_token=${token}&item_id=${itemId}&page_id=${pageId}&keyword=slow`,
          { pauseMs: 20, chunks: 4 },
        ),
    },
  ];
}

const FORMS = [
  (r: string) => `/api/${r}`,
  (r: string) => `/server/index.php?s=/api/${r}`,
  (r: string) => `/server/api/${r}`,
];

test('every registered action answers hostile bodies cleanly and the server stays up', async () => {
  const routes = createControllerRegistry().routes();
  expect(routes.length).toBeGreaterThan(100); // the table really was read
  const jobs: (() => Promise<void>)[] = [];
  const failures: string[] = [];
  // One token per action: an action that logs out or changes the password revokes only its own.
  const tokens = await Promise.all(
    routes.map(async () => (await issueToken(user.uid, { ip: '127.0.0.1' })).token),
  );
  routes.forEach((route, index) => {
    casesFor(tokens[index], index + 1).forEach((fuzz, caseIndex) => {
      const target = FORMS[(index + caseIndex) % FORMS.length](route);
      jobs.push(async () => {
        try {
          const answer = await fuzz.run(target);
          const json = /content-type: application\/json/i.test(answer.head);
          // The envelope, or editor.md's `{success, message}` for the image-upload actions.
          const enveloped = json && /"(error_code|success)":\s*-?\d+/.test(answer.body);
          if (answer.status >= 500 || (answer.status === 200 && json && !enveloped))
            failures.push(
              `${target} — ${fuzz.name}: HTTP ${answer.status} ${answer.body.slice(0, 160)}`,
            );
        } catch (error) {
          failures.push(`${target} — ${fuzz.name}: ${(error as Error).message.split('\n')[0]}`);
        }
      });
    });
  });

  // A few at a time: hostile, but not a load test.
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );

  expect(failures).toEqual([]);
  const health = await server.request('/healthz');
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });
}, 120_000);

test('a body that stalls half-way is dropped by the server, which keeps answering others', async () => {
  const socket = net.connect(server.port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    'POST /api/page/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: 1000\r\n\r\n{"user_token":"${user.user_token}",`,
  );
  const health = await server.request('/healthz');
  expect(health.status).toBe(200);
  socket.destroy();
  const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
  const after = await server.api.withToken(token).call('item/myList');
  expect(after.body.error_code).toBe(0);
});

test('a JSON body nested 10,000 deep is refused at once with the error envelope; nothing is written', async () => {
  const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
  const deep = '['.repeat(10_000) + '"x"' + ']'.repeat(10_000);
  const before = await server.api.withToken(token).ok<{ page_content: string }>('page/info', {
    page_id: pageId,
  });
  for (const [path, body] of [
    [
      '/api/page/save',
      `{"user_token":"${token}","page_id":${pageId},"item_id":${itemId},"page_title":"Fuzzed","page_content":${deep}}`,
    ],
    [
      '/server/index.php?s=/api/item/info',
      `{"user_token":"${token}","item_id":${itemId},"x":${deep}}`,
    ],
  ]) {
    const started = performance.now();
    const response = await server.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error_code: 10101,
      error_message: 'The request body is nested too deeply (at most 100 levels)',
    });
  }
  const after = await server.api.withToken(token).ok<{ page_content: string }>('page/info', {
    page_id: pageId,
  });
  expect(after.page_content).toBe(before.page_content);
  // Ordinary nesting (a RunApi document, PHP-style arrays) is far inside the limit.
  const nested = '{"a":'.repeat(50) + '1' + '}'.repeat(50);
  const fine = await server.request('/api/item/info', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"user_token":"${token}","item_id":${itemId},"x":${nested}}`,
  });
  expect((await fine.json()).error_code).toBe(0);
});
