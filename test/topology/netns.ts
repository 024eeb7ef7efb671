/**
 * The topology's network: one Linux network namespace per host, all on one bridge that lives in a
 * namespace of its own (`qt-sw`, the "switch"), so the root namespace gets nothing but one veth
 * (`qt-host`) with the test's addresses — the test process (the clients) reaches the proxy
 * through it. Nothing touches the host's routes or firewall; deleting the namespaces and that veth
 * removes everything (`teardownNetwork`, also run by .ci/run's trap as `--cleanup`).
 *
 *   qt-host (root ns) 10.213.57.1 (+ .101… client addresses) ─┐
 *   qt-db .2  qt-redis .3  qt-proxy .10  qt-api1 .11  qt-api2 .12  qt-rt1 .21  qt-rt2 .22
 *   each: eth0 ⇄ veth `v-<name>` on bridge br0 in qt-sw
 */
import { execFileSync, spawnSync } from 'node:child_process';

export const SUBNET = '10.213.57';
export const PREFIX = 'qt-';
export const SWITCH = `${PREFIX}sw`;
const HOST_LINK = `${PREFIX}host`;

export const HOSTS = {
  db: `${SUBNET}.2`,
  redis: `${SUBNET}.3`,
  proxy: `${SUBNET}.10`,
  api1: `${SUBNET}.11`,
  api2: `${SUBNET}.12`,
  rt1: `${SUBNET}.21`,
  rt2: `${SUBNET}.22`,
} as const;
export type HostName = keyof typeof HOSTS;

/** The test process's own address, and the addresses its socket clients connect from. */
export const ROOT_ADDRESS = `${SUBNET}.1`;
export const clientAddress = (index: number) => `${SUBNET}.${101 + index}`;

export const nsOf = (host: HostName) => `${PREFIX}${host}`;

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Why this machine cannot build the topology, or undefined when it can (root, `ip netns`,
 * nginx, redis-server). The test fails with this message rather than skipping.
 */
export function missingPrerequisite(): string | undefined {
  if (process.getuid?.() !== 0)
    return 'the topology test builds network namespaces and must run as root (CI does: .ci/run)';
  for (const [command, args] of [
    ['ip', ['netns', 'list']],
    ['nginx', ['-v']],
    ['redis-server', ['--version']],
  ] as const) {
    const run = spawnSync(command, args, { encoding: 'utf8' });
    if (run.error || run.status !== 0)
      return `\`${command} ${args.join(' ')}\` failed (${run.error?.message ?? run.stderr.trim()}): install iproute2, nginx and redis-server (.ci/run does)`;
  }
  return undefined;
}

/** Our namespaces that exist now (a crashed earlier run may have left some). */
function ourNamespaces(): string[] {
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  return list
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(PREFIX));
}

/**
 * Kills whatever still runs in our namespaces and deletes them and the root namespace's veth.
 * Safe to call at any time, any number of times.
 */
export function teardownNetwork(): void {
  for (const ns of ourNamespaces()) {
    const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
    for (const pid of pids.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    spawnSync('ip', ['netns', 'del', ns]);
  }
  // Normally gone with its peer in qt-sw; a half-built run may have left it.
  spawnSync('ip', ['link', 'del', HOST_LINK], { stdio: 'ignore' });
}

/** Refuses to build over a subnet the host already routes (it would shadow real traffic). */
function assertSubnetFree(): void {
  const routes = execFileSync('ip', ['-4', 'route', 'show'], { encoding: 'utf8' });
  for (const line of routes.split('\n'))
    if (line.startsWith(`${SUBNET}.`))
      throw new Error(
        `the host already routes ${SUBNET}.0/24 (${line}): the topology test needs it free`,
      );
}

/** Builds the switch, every host namespace and the root namespace's veth with `clients` addresses. */
export function buildNetwork(clients: number): void {
  teardownNetwork();
  assertSubnetFree();
  ip('netns', 'add', SWITCH);
  ip('-n', SWITCH, 'link', 'add', 'br0', 'type', 'bridge');
  ip('-n', SWITCH, 'link', 'set', 'br0', 'up');
  ip('-n', SWITCH, 'link', 'set', 'lo', 'up');
  for (const [host, address] of Object.entries(HOSTS) as [HostName, string][]) {
    const ns = nsOf(host);
    const port = `v-${host}`;
    ip('netns', 'add', ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', SWITCH, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
    ip('-n', SWITCH, 'link', 'set', port, 'master', 'br0');
    ip('-n', SWITCH, 'link', 'set', port, 'up');
    ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    ip('-n', ns, 'link', 'set', 'eth0', 'up');
  }
  ip('link', 'add', HOST_LINK, 'type', 'veth', 'peer', 'name', 'v-host', 'netns', SWITCH);
  ip('-n', SWITCH, 'link', 'set', 'v-host', 'master', 'br0');
  ip('-n', SWITCH, 'link', 'set', 'v-host', 'up');
  ip('addr', 'add', `${ROOT_ADDRESS}/24`, 'dev', HOST_LINK);
  for (let i = 0; i < clients; i++) ip('addr', 'add', `${clientAddress(i)}/24`, 'dev', HOST_LINK);
  ip('link', 'set', HOST_LINK, 'up');
}

/**
 * Cuts a host off the network (its switch port down: packets both ways are dropped, connections
 * stall rather than reset, as in a real partition) or puts it back.
 */
export function setHostLink(host: HostName, up: boolean): void {
  ip('-n', SWITCH, 'link', 'set', `v-${host}`, up ? 'up' : 'down');
}
