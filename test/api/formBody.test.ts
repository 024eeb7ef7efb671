/**
 * The small-form reader (api/formBody.ts) reads what body-parser's extended urlencoded parser
 * reads: the same body sent to a real HTTP server once through each gives the same fields or the
 * same error, and through the ShowDoc transport a form too deep for qs is a clear 400 envelope.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import express, { type NextFunction, type Request, type Response } from 'express';
import { readSmallForm, smallFormLength, SMALL_FORM_BYTES } from '../../api/formBody';
import { serverSuite } from '../helpers/apiSuite';

const LIMIT = 64 * 1024;
const PARAMETERS = 50;

let server: http.Server;
let base = '';

/** `/parser` reads with body-parser, `/small` with readSmallForm; both echo fields or error. */
beforeAll(async () => {
  const app = express();
  const answer = (req: Request, res: Response) => res.json({ body: req.body ?? null });
  app.post(
    '/parser',
    express.urlencoded({ extended: true, limit: LIMIT, parameterLimit: PARAMETERS }),
    answer,
  );
  app.post(
    '/small',
    (req: Request, _res: Response, next: NextFunction) => {
      if (!smallFormLength(req, LIMIT)) return next(new Error('not a small form'));
      readSmallForm(req, PARAMETERS, next);
    },
    answer,
  );
  app.use(
    (
      error: { status?: number; type?: string },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      res.status(error.status ?? 500).json({ error: error.type ?? 'other' });
    },
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function post(path: string, body: string | Buffer, type: string) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('small forms read as body-parser reads them', () => {
  const bodies: Array<[string, string | Buffer]> = [
    ['plain fields', 'user_token=abc&page_id=12&keyword=quasar'],
    ['+ and escapes', 'a=1+2&b=%E6%97%A5%E6%9C%AC&c=%ZZ&d=100%&e='],
    ['PHP arrays and nesting', 'ids[]=1&ids[]=2&m[a][b]=3&m[a][c][]=x&n[5]=y'],
    ['operators', 'item_id[$ne]=1&page_id[$gt]='],
    ['prototype keys', '__proto__[x]=1&constructor[prototype][y]=2&hasOwnProperty=3'],
    ['repeated keys', 'a=1&a=2&a=3'],
    ['no values', 'a&b=&=c&&'],
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x=1')])],
    ['broken UTF-8', Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x26, 0x62, 0x3d, 0x31])],
    ['nested past the depth bound', 'a' + '[b]'.repeat(40) + '=1'],
    ['too many fields', Array.from({ length: PARAMETERS + 1 }, (_, i) => `f${i}=1`).join('&')],
  ];

  test.each(bodies)('%s', async (_name, body) => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
    ]) {
      const [parser, small] = await Promise.all([
        post('/parser', body, type),
        post('/small', body, type),
      ]);
      expect(small).toEqual(parser);
    }
  });

  test('only small identity forms in UTF-8 with a declared length take the short path', () => {
    const req = (headers: Record<string, string>) =>
      ({ headers }) as unknown as Parameters<typeof smallFormLength>[0];
    const form = 'application/x-www-form-urlencoded';
    expect(smallFormLength(req({ 'content-type': form, 'content-length': '10' }), LIMIT)).toBe(10);
    expect(
      smallFormLength(
        req({ 'content-type': `${form}; charset=utf-8`, 'content-length': '3' }),
        LIMIT,
      ),
    ).toBe(3);
    const others: Array<Record<string, string>> = [
      { 'content-type': 'application/json', 'content-length': '10' },
      { 'content-type': `${form}; charset=iso-8859-1`, 'content-length': '10' },
      { 'content-type': form, 'content-length': '0' },
      { 'content-type': form, 'transfer-encoding': 'chunked' },
      { 'content-type': form, 'content-length': '10', 'content-encoding': 'gzip' },
      { 'content-type': form, 'content-length': String(SMALL_FORM_BYTES + 1) },
    ];
    for (const headers of others) expect(smallFormLength(req(headers), LIMIT)).toBe(0);
    expect(smallFormLength(req({ 'content-type': form, 'content-length': '100' }), 50)).toBe(0);
  });
});

describe('through the ShowDoc transport', () => {
  const suite = serverSuite();

  test('a form nested past the depth bound is a 400 envelope, not an internal error', async () => {
    const response = await fetch(`${suite.server.url}/api/page/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'page_id=1&x' + '[a]'.repeat(40) + '=1',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error_code: 10101,
      error_message: 'Request body nested too deeply',
    });
  });

  test('the same form read whole or streamed in chunks answers the same', async () => {
    const body = 'keyword=x&item_id=0&page_id=999999';
    const whole = await fetch(`${suite.server.url}/api/page/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const chunked = await fetch(`${suite.server.url}/api/page/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.headers.get('content-type')).toBe(whole.headers.get('content-type'));
    expect(await chunked.json()).toEqual(await whole.json());
  });
});
