/**
 * The success envelope as text: fields a model keeps as JSON text (RawJson) are spliced in, and
 * the answer is exactly what serialising the parsed value would give (key order, skipped
 * undefined fields, the empty payload as []).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from '@jest/globals';
import { sendSuccess, successParts } from '../../api/envelope';
import { RawJson } from '../../models/platform';

/** The envelope's parts joined, as they go out on the wire. */
const successJson = (data: unknown) => Buffer.concat(successParts(data));

describe('successParts', () => {
  test('a RawJson field is spliced in and the text equals serialising the parsed value', () => {
    const menu = {
      pages: [{ page_id: '1', page_title: 'Ünïcode "quoted" </script>' }],
      catalogs: [],
    };
    const data = {
      item_id: '7',
      menu: new RawJson(JSON.stringify(menu)),
      skipped: undefined,
      is_login: true,
    };
    const text = successJson(data).toString('utf8');
    // The kept bytes go out as a part of their own, not copied.
    expect(successParts(data)).toContain(data.menu.bytes);
    expect(text).toBe(
      JSON.stringify({ error_code: 0, data: { item_id: '7', menu, is_login: true } }),
    );
    expect(JSON.parse(text).data.menu).toEqual(menu);
  });

  test('answers without RawJson are plain JSON, and an empty payload is []', () => {
    expect(successJson({ a: 1 }).toString()).toBe('{"error_code":0,"data":{"a":1}}');
    expect(successJson(undefined).toString()).toBe('{"error_code":0,"data":[]}');
    expect(successJson([1, 2]).toString()).toBe('{"error_code":0,"data":[1,2]}');
  });
});

describe('sendSuccess', () => {
  /** Answers one request with sendSuccess(data) on a real HTTP server; the raw response. */
  async function answer(data: unknown) {
    const server = http.createServer((_req, res) => sendSuccess(res, data));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return {
        headers: response.headers,
        bytes: Buffer.from(await response.arrayBuffer()),
      };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  test('an answer in several parts arrives whole, with its byte length and not chunked', async () => {
    const menu = { pages: [{ page_title: 'Ünïcode — 日本語 "q"' }], catalogs: [] };
    const data = { a: 'é', menu: new RawJson(JSON.stringify(menu)), b: [1, 2] };
    const { headers, bytes } = await answer(data);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('transfer-encoding')).toBeNull();
    expect(Number(headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.toString('utf8')).toBe(
      JSON.stringify({ error_code: 0, data: { a: 'é', menu, b: [1, 2] } }),
    );
  });

  test('a plain answer is one JSON body', async () => {
    const { headers, bytes } = await answer({ ok: 'ü' });
    expect(Number(headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ error_code: 0, data: { ok: 'ü' } });
  });
});
