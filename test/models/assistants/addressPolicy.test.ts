/**
 * The HTTP relay's address rules: public unicast addresses pass; loopback, private, link-local
 * (cloud metadata), carrier NAT, unique-local, multicast, unspecified and IPv4-mapped forms of
 * those are refused with a message naming the address and why; HTTP_RELAY_ALLOW_HOSTS entries
 * (host names, addresses, CIDR ranges) open exactly what they name.
 */
import { describe, expect, test } from '@jest/globals';
import {
  type AddressPolicy,
  checkAddress,
  resolveChecked,
} from '../../../models/assistants/addressPolicy';

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
    expect(message).toContain('The relay does not connect to');
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
