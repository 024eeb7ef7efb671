/**
 * The address policy of every server-side connection: public unicast addresses pass; loopback,
 * private, link-local (cloud metadata), carrier NAT, unique-local, multicast, unspecified and IPv4-mapped forms of
 * those are refused with a message naming the address and why; ALLOW_PRIVATE_HOSTS entries
 * (host names, addresses, CIDR ranges) open exactly what they name. `policyFetch` (AI service,
 * OAuth2, release feed) and `checkedLookup` (S3 agents) connect only where the policy allows,
 * each redirect hop checked again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  type AddressPolicy,
  checkAddress,
  checkedLookup,
  isAddressRefusal,
  policyFetch,
  resolveChecked,
} from '../../../models/platform/addressPolicy';

const closed: AddressPolicy = { allowHosts: [] };

function refusal(address: string, policy: AddressPolicy = closed, hostname = address): string {
  try {
    checkAddress(policy, hostname, address);
  } catch (error) {
    return (error as Error).message;
  }
  return 'allowed';
}

describe('checkAddress', () => {
  test.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(refusal(address)).toBe('allowed');
  });

  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private network'],
    ['172.16.0.5', 'private network'],
    ['192.168.1.1', 'private network'],
    ['fd00::1', 'private network'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is refused as %s', (address, why) => {
    const message = refusal(address);
    expect(message).toContain(why);
    expect(message).toContain('Quire does not connect to');
  });

  test('the allow list opens the addresses, ranges and names it lists, nothing more', () => {
    const policy = { allowHosts: ['127.0.0.1', '10.1.0.0/16', 'intranet.test'] };
    expect(refusal('127.0.0.1', policy)).toBe('allowed');
    expect(refusal('::ffff:127.0.0.1', policy)).toBe('allowed');
    expect(refusal('127.0.0.2', policy)).toContain('loopback');
    expect(refusal('10.1.200.3', policy)).toBe('allowed');
    expect(refusal('10.2.0.1', policy)).toContain('private network');
    expect(refusal('192.168.3.4', policy, 'intranet.test')).toBe('allowed');
    expect(refusal('192.168.3.4', policy, 'other.test')).toContain('other.test (192.168.3.4)');
    expect(refusal('169.254.169.254', policy)).toContain('link-local');
  });
});

describe('resolveChecked', () => {
  test('a host name is judged by the addresses it resolves to', async () => {
    await expect(resolveChecked(closed, 'localhost')).rejects.toThrow(
      /localhost \(.+\): .*loopback/,
    );
    await expect(
      resolveChecked({ allowHosts: ['127.0.0.1', '::1'] }, 'localhost'),
    ).resolves.toEqual(
      expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) }),
    );
  });

  test('a literal address (IPv6 in brackets too) is checked without a lookup', async () => {
    await expect(resolveChecked(closed, '[::1]')).rejects.toThrow(/loopback/);
    await expect(resolveChecked(closed, '8.8.8.8')).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
  });
});

describe('connecting under the policy', () => {
  let target: http.Server;
  let base = '';
  let hits = 0;
  beforeAll(async () => {
    target = http.createServer((req, res) => {
      hits += 1;
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        res.end();
        return;
      }
      if (req.url === '/hop') {
        res.writeHead(303, { location: '/json' });
        res.end();
        return;
      }
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body, host: req.headers.host }));
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
  });

  const open: AddressPolicy = { allowHosts: ['127.0.0.1'] };

  test('policyFetch refuses a loopback target unless listed, without connecting', async () => {
    const before = hits;
    const error = await policyFetch(
      `${base}/json`,
      {},
      { allowHosts: [], subject: 'The AI service' },
    )
      .then(() => null)
      .catch((e: unknown) => e);
    expect(isAddressRefusal(error)).toBe(true);
    expect((error as Error).message).toBe(
      'The AI service does not connect to 127.0.0.1: a loopback address',
    );
    expect(hits).toBe(before);
  });

  test('policyFetch sends bodies, streams the answer and follows a redirect it checks', async () => {
    const posted = await policyFetch(`${base}/json`, { method: 'POST', body: 'a=1' }, open);
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ method: 'POST', body: 'a=1' });
    const hopped = await policyFetch(`${base}/hop`, { method: 'POST', body: 'x' }, open);
    expect(await hopped.json()).toMatchObject({ method: 'GET', body: '' });
    const error = await policyFetch(`${base}/to-metadata`, {}, open).catch((e: unknown) => e);
    expect(isAddressRefusal(error)).toBe(true);
    expect((error as Error).message).toMatch(/169\.254\.169\.254: a link-local address/);
  });

  test('checkedLookup lets an agent reach a listed name only', async () => {
    const port = (target.address() as AddressInfo).port;
    const get = (policy: AddressPolicy) =>
      new Promise<number>((resolve, reject) => {
        const agent = new http.Agent({ lookup: checkedLookup(() => policy) });
        http
          .get({ host: 'localhost', port, path: '/json', agent, family: 4 }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
    await expect(get({ allowHosts: [] })).rejects.toThrow(/localhost \(.+\): .*loopback/);
    await expect(get({ allowHosts: ['localhost'] })).resolves.toBe(200);
  });
});
