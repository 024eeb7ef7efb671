/**
 * The web app's delivery over real HTTP: the build's brotli and gzip copies are sent by content
 * negotiation (Accept-Encoding, Vary, the original's Content-Type, the copy's Content-Length),
 * plain bytes for clients that take no compression and for Range requests, and the cache policy
 * (hashed assets immutable for a year, index.html revalidated).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { BROWSER_UA } from '../helpers/client';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let webDir: string;

const SCRIPT = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const value${i} = "line ${i}";`).join('\n'),
);
const SHELL = Buffer.from(
  `<!doctype html><html><head><title>Quire</title></head><body><div id="root">${'app shell '.repeat(200)}</div></body></html>`,
);
const PLAIN_ONLY = Buffer.from('console.log("too small to compress")');

function writeWithCopies(file: string, body: Buffer): void {
  fs.writeFileSync(file, body);
  fs.writeFileSync(`${file}.br`, brotliCompressSync(body));
  fs.writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

beforeAll(async () => {
  webDir = await makeTempDir('quire-web-');
  fs.mkdirSync(path.join(webDir, 'assets'));
  writeWithCopies(path.join(webDir, 'index.html'), SHELL);
  writeWithCopies(path.join(webDir, 'assets', 'reader-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(webDir, 'assets', 'tiny-def456.js'), PLAIN_ONLY);
  server = await startTestServer({ webDistDir: webDir });
});

afterAll(async () => {
  await server.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request that shows the bytes on the wire (fetch would decode them and add its own header). */
function raw(
  pathname: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${pathname}`,
      { method, headers: { 'user-agent': BROWSER_UA, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('compressed asset negotiation', () => {
  test('a browser that takes brotli gets the .br copy, labelled as JavaScript, with its own length', async () => {
    const res = await raw('/assets/reader-abc123.js', {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length);
    expect(brotliDecompressSync(res.body).equals(SCRIPT)).toBe(true);
  });

  test('a client that takes only gzip (or refuses brotli) gets the .gz copy', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=1, br;q=0.5, identity;q=0.1']) {
      const res = await raw('/assets/reader-abc123.js', { 'accept-encoding': accept });
      expect({ accept, encoding: res.headers['content-encoding'] }).toEqual({
        accept,
        encoding: 'gzip',
      });
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(gunzipSync(res.body).equals(SCRIPT)).toBe(true);
    }
  });

  test('a client without Accept-Encoding, or asking for identity, gets the plain file', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'compress' },
    ];
    for (const headers of variants) {
      const res = await raw('/assets/reader-abc123.js', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(Number(res.headers['content-length'])).toBe(SCRIPT.length);
      expect(res.body.equals(SCRIPT)).toBe(true);
    }
  });

  test('a Range request is answered from the plain file, whatever the client accepts', async () => {
    const res = await raw('/assets/reader-abc123.js', {
      'accept-encoding': 'br, gzip',
      range: 'bytes=10-29',
    });
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 10-29/${SCRIPT.length}`);
    expect(res.body.equals(SCRIPT.subarray(10, 30))).toBe(true);
  });

  test('HEAD announces the same encoding and length as GET, without a body', async () => {
    const res = await raw('/assets/reader-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(brotliCompressSync(SCRIPT).length);
    expect(res.body.length).toBe(0);
  });

  test('a file the build did not compress is sent plain to every client', async () => {
    const res = await raw('/assets/tiny-def456.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(PLAIN_ONLY)).toBe(true);
  });

  test('a missing asset is a 404 that claims no encoding', async () => {
    const res = await raw('/assets/missing-000.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('the app shell and cache policy', () => {
  test('a deep link gets the compressed index.html, revalidated on every visit', async () => {
    const res = await raw('/123/456', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).equals(SHELL)).toBe(true);
  });

  test('"/" and /index.html are the same shell, not cached for a year', async () => {
    for (const pathname of ['/', '/index.html']) {
      const res = await raw(pathname);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.equals(SHELL)).toBe(true);
    }
  });

  test('hashed assets are public and immutable for a year, compressed or not', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await raw('/assets/reader-abc123.js', { 'accept-encoding': accept });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  test('a conditional request for an unchanged compressed asset is a 304', async () => {
    const first = await raw('/assets/reader-abc123.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    const again = await raw('/assets/reader-abc123.js', {
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  test('the request log names the path asked for, not the file sent', async () => {
    await raw('/assets/reader-abc123.js', { 'accept-encoding': 'br' });
    await raw('/deep/link', { 'accept-encoding': 'br' });
    const paths = server.logs.filter((l) => l.msg === 'request').map((l) => l.path);
    expect(paths).toEqual(expect.arrayContaining(['/assets/reader-abc123.js', '/deep/link']));
    expect(paths.filter((p) => String(p).endsWith('.br'))).toEqual([]);
  });

  test('a path that climbs out of dist/ is not served', async () => {
    const res = await raw('/assets/..%2f..%2fpackage.json', { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
  });
});
