/**
 * httpRelay/send, the HTTP test tool's server relay, with HTTP_RELAY_ALLOW_HOSTS=127.0.0.1 so it
 * may reach a local test server: it sends the described request (method, headers, body; the
 * query is part of the URL) and answers status, headers, body and timing; it follows redirects
 * by hand and refuses, on any hop, an address the allow list does not open (127.0.0.2, cloud
 * metadata, private networks); it cuts long answers and reports binary ones by size; it needs a
 * login. (httpRelayClosed.test.ts runs with the allow list empty.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { type HttpTarget, startHttpTarget } from '../helpers/assistantServers';

const suite = apiSuite({ env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' } });
let target: HttpTarget;
/** Another origin (another port) for cross-origin redirects. */
let other: HttpTarget;

beforeAll(async () => {
  [target, other] = await Promise.all([startHttpTarget(), startHttpTarget()]);
});
afterAll(async () => {
  await Promise.all([target.close(), other.close()]);
});

interface Relayed {
  status: number;
  status_text: string;
  headers: [string, string][];
  body: string;
  binary: number;
  size: number;
  truncated: number;
  url: string;
  redirects: number;
  duration_ms: number;
}

function send(params: Record<string, string>) {
  return suite.as(suite.editor).call('httpRelay/send', params);
}

describe('httpRelay/send to an allowed local server', () => {
  test('sends method, headers, query and body; answers status, headers, body and timing', async () => {
    const answer = await send({
      method: 'post',
      url: `${target.url}/echo?page=2&q=%E4%B8%AD`,
      headers: JSON.stringify([
        ['Content-Type', 'application/json'],
        ['X-Trace', 'abc'],
        ['Host', 'evil.example'],
      ]),
      body: '{"name":"张三"}',
    });
    expect(answer.body.error_code).toBe(0);
    const data = answer.body.data as Relayed;
    expect(data).toMatchObject({ status: 201, status_text: 'Created', binary: 0, truncated: 0 });
    expect(data.redirects).toBe(0);
    expect(data.duration_ms).toEqual(expect.any(Number));
    expect(data.headers).toContainEqual(['x-target', 'echo']);
    const echoed = JSON.parse(data.body) as {
      method: string;
      query: Record<string, string>;
      headers: Record<string, string>;
      body: string;
    };
    expect(echoed.method).toBe('POST');
    expect(echoed.query).toEqual({ page: '2', q: '中' });
    expect(echoed.headers['x-trace']).toBe('abc');
    expect(echoed.headers['content-type']).toBe('application/json');
    // The relay sets Host itself: a client cannot aim it at another virtual host.
    expect(echoed.headers.host).toBe(new URL(target.url).host);
    expect(echoed.body).toBe('{"name":"张三"}');
  });

  test('headers may also come as [{name, value}] and GET sends no body', async () => {
    const answer = await send({
      url: `${target.url}/echo`,
      headers: JSON.stringify([{ name: 'Accept', value: 'application/json' }]),
      body: 'ignored',
    });
    const echoed = JSON.parse((answer.body.data as Relayed).body) as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(echoed).toMatchObject({ method: 'GET', body: '' });
    expect(echoed.headers.accept).toBe('application/json');
  });

  test('follows a redirect to an allowed address; a 303 continues as GET without the body', async () => {
    const to = encodeURIComponent(`${target.url}/echo?after=1`);
    const answer = await send({
      method: 'POST',
      url: `${target.url}/redirect?status=303&to=${to}`,
      body: 'a=1',
      headers: JSON.stringify([['Content-Type', 'application/x-www-form-urlencoded']]),
    });
    const data = answer.body.data as Relayed;
    expect(data.redirects).toBe(1);
    expect(data.url).toBe(`${target.url}/echo?after=1`);
    expect(JSON.parse(data.body)).toMatchObject({ method: 'GET', body: '', query: { after: '1' } });
  });

  test('a redirect to another origin keeps ordinary headers but drops Authorization and Cookie', async () => {
    const to = encodeURIComponent(`${other.url}/echo`);
    const answer = await send({
      url: `${target.url}/redirect?status=307&to=${to}`,
      headers: JSON.stringify([
        ['Authorization', 'Bearer secret'],
        ['Cookie', 'sid=1'],
        ['X-Keep', 'yes'],
      ]),
    });
    const data = answer.body.data as Relayed;
    expect(data.url).toBe(`${other.url}/echo`);
    const echoed = JSON.parse(data.body) as { headers: Record<string, string> };
    expect(echoed.headers['x-keep']).toBe('yes');
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers.cookie).toBeUndefined();
  });

  test.each([
    ['http://127.0.0.2/echo', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://10.0.0.1/', 'private network'],
    ['http://[::1]/', 'loopback'],
  ])('refuses a redirect to %s (%s) before connecting to it', async (to, why) => {
    const seen = target.seen.length;
    const answer = await send({
      url: `${target.url}/redirect?to=${encodeURIComponent(to)}`,
    });
    expect(answer.body.error_code).toBe(10403);
    expect(answer.body.error_message).toContain('The relay does not connect to');
    expect(answer.body.error_message).toContain(why);
    expect(target.seen.length).toBe(seen);
  });

  test('refuses the cloud metadata address and private ranges when asked directly', async () => {
    for (const url of ['http://169.254.169.254/', 'http://192.168.0.1/', 'http://127.0.0.2:1/']) {
      const answer = await send({ url });
      expect(answer.body).toMatchObject({
        error_code: 10403,
        error_message: expect.stringContaining('The relay does not connect to'),
      });
    }
  });

  test('gives up after 5 redirects', async () => {
    let url = `${target.url}/echo`;
    for (let i = 0; i < 6; i += 1) url = `${target.url}/redirect?to=${encodeURIComponent(url)}`;
    const answer = await send({ url });
    expect(answer.body).toMatchObject({
      error_code: 10101,
      error_message: 'More than 5 redirects',
    });
  });

  test('keeps 2 MB of a longer answer and says it was cut', async () => {
    const answer = await send({ url: `${target.url}/big?bytes=${3 * 1024 * 1024}` });
    const data = answer.body.data as Relayed;
    expect(data.truncated).toBe(1);
    expect(data.body.length).toBe(2 * 1024 * 1024);
  });

  test('a binary answer is reported by type and size, not as text', async () => {
    const data = (await send({ url: `${target.url}/binary` })).body.data as Relayed;
    expect(data).toMatchObject({ binary: 1, body: '', size: 8 });
    expect(data.headers).toContainEqual(['content-type', 'image/png']);
  });

  test('refuses what it cannot send', async () => {
    expect((await send({ url: 'ftp://example.com/' })).body).toMatchObject({
      error_code: 10101,
      error_message: 'Only http:// and https:// addresses can be tested',
    });
    expect((await send({ url: 'not a url' })).body.error_code).toBe(10101);
    expect((await send({ url: `${target.url}/echo`, method: 'TRACE' })).body).toMatchObject({
      error_code: 10101,
      error_message: 'Unsupported method TRACE',
    });
    const badHeader = await send({
      url: `${target.url}/echo`,
      headers: JSON.stringify([['X-A', 'b\r\nInjected: 1']]),
    });
    expect(badHeader.body).toMatchObject({ error_code: 10101 });
  });

  test('needs a login', async () => {
    const answer = await suite.server.api.call('httpRelay/send', { url: `${target.url}/echo` });
    expect(answer.body.error_code).toBe(10102);
  });
});
