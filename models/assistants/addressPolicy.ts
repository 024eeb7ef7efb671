/**
 * Which addresses the HTTP test tool's server relay may connect to. Only public unicast
 * addresses: loopback, private networks, link-local (cloud metadata at 169.254.169.254), carrier
 * NAT (Alibaba's metadata at 100.100.100.200), unique-local IPv6, multicast, reserved and the
 * IPv6 forms that embed an IPv4 address are refused — unless the operator lists the host name,
 * the address or its range in HTTP_RELAY_ALLOW_HOSTS. The decision is made on the addresses a
 * host name resolves to, and the relay then connects to exactly the address that was checked
 * (no second lookup an attacker's DNS could answer differently).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { errors } from '../platform';

/** ipaddr.js range names, as the refusal explains them. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address (cloud metadata services live there)',
  uniqueLocal: 'a private network address',
  carrierGradeNat: 'a carrier-grade NAT address (cloud metadata services live there)',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export interface AddressPolicy {
  /** HTTP_RELAY_ALLOW_HOSTS entries: host names, addresses, CIDR ranges (lower case). */
  allowHosts: readonly string[];
}

function allowedByList(policy: AddressPolicy, hostname: string, ip: ipaddr.IPv4 | ipaddr.IPv6) {
  for (const entry of policy.allowHosts) {
    if (entry === hostname) return true;
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (range.kind() === ip.kind() && ip.match([range, bits] as never)) return true;
      } else if (ipaddr.isValid(entry) && ipaddr.process(entry).toString() === ip.toString())
        return true;
    } catch {
      // Config validation accepted it; a mismatch of kinds is simply "not this entry".
    }
  }
  return false;
}

/** Throws 10403 naming the address when the relay must not connect to it. */
export function checkAddress(policy: AddressPolicy, hostname: string, address: string): void {
  // `process` turns IPv4-mapped IPv6 (::ffff:127.0.0.1) back into the IPv4 it hides.
  const ip = ipaddr.process(address);
  if (allowedByList(policy, hostname, ip)) return;
  const range = ip.range();
  if (range === 'unicast') return;
  const why = RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  const shown = hostname === address ? address : `${hostname} (${address})`;
  throw errors.forbidden(`The relay does not connect to ${shown}: ${why}`);
}

/**
 * Resolves `hostname` and checks every address it has (one private answer is enough to refuse:
 * the client could not know which one a connection would use). Returns the first, to connect to.
 */
export async function resolveChecked(
  policy: AddressPolicy,
  hostname: string,
): Promise<CheckedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let answers: { address: string; family: number }[];
  if (ipaddr.isValid(bare)) {
    answers = [{ address: bare, family: bare.includes(':') ? 6 : 4 }];
  } else {
    try {
      answers = await dnsLookup(bare, { all: true, verbatim: true });
    } catch {
      throw errors.failed(`Cannot resolve the host name ${bare}`);
    }
  }
  if (!answers.length) throw errors.failed(`Cannot resolve the host name ${bare}`);
  for (const answer of answers) checkAddress(policy, bare, answer.address);
  const first = answers[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
