/**
 * Security headers (issue #16): the web app and the API answer with a CSP, frame-ancestors +
 * X-Frame-Options, nosniff and a Referrer-Policy; API answers are `Cache-Control: no-store`; and
 * absolute URLs come from `site_url` or the address the connection reached — never from the
 * client's Host (or an untrusted X-Forwarded-Host) header.
 */
import http from 'node:http';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { setSetting } from '../../models/settings/settings';
import { makeItem } from '../helpers/factories';
import { serverSuite } from '../helpers/apiSuite';
import { multipartBody, samples } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
let owner: TestUser;
let itemId: number;

beforeAll(async () => {
  owner = await makeUser();
  itemId = (await makeItem(owner)).item_id;
});

function expectFramingAndSniffing(headers: Headers): void {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
  // The rest of helmet's set, on every answer too.
  expect(headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(headers.get('x-dns-prefetch-control')).toBe('off');
  expect(headers.get('x-permitted-cross-domain-policies')).toBe('none');
  expect(headers.get('x-xss-protection')).toBe('0');
  expect(headers.get('x-powered-by')).toBeNull();
}

describe('headers', () => {
  test('the web app page carries the CSP, framing, nosniff and referrer headers', async () => {
    const page = await suite.server.request('/');
    expect(page.status).toBe(200);
    expectFramingAndSniffing(page.headers);
  });

  test('API answers carry them too, and are never stored by a cache', async () => {
    const answer = await suite.server.api.withToken(owner.user_token).call('user/info');
    expect(answer.body.error_code).toBe(0);
    expectFramingAndSniffing(answer.headers);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const anonymous = await suite.server.api.call('item/myList');
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
  });
});

/** An upload sent with a chosen Host header (fetch would not let us set it). */
function uploadWithHost(headers: Record<string, string>): Promise<string> {
  const { body, contentType } = multipartBody([
    { name: 'user_token', value: owner.user_token },
    { name: 'item_id', value: String(itemId) },
    { name: 'editormd-image-file', filename: 'a.png', content: samples.png(), type: 'image/png' },
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: suite.server.port,
        method: 'POST',
        path: '/api/page/uploadImg',
        headers: { 'content-type': contentType, 'content-length': body.length, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(String(JSON.parse(text).url)));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('absolute URLs', () => {
  test('a forged Host or X-Forwarded-Host header never becomes the link host', async () => {
    const url = await uploadWithHost({ host: 'evil.example', 'x-forwarded-host': 'evil2.example' });
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${suite.server.port}/server/`));
    expect(url).not.toMatch(/evil/);
  });

  test('the site_url setting is the link base when set', async () => {
    await setSetting('site_url', 'https://docs.example.org/');
    try {
      const url = await uploadWithHost({ host: 'evil.example' });
      expect(url).toMatch(/^https:\/\/docs\.example\.org\/server\//);
    } finally {
      await setSetting('site_url', '');
    }
  });
});
