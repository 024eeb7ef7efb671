/**
 * The topology's hosts: each one process started inside its network namespace with
 * `ip netns exec` (which execs it, so the child's pid is the server's own and `kill -9` reaches
 * it): the embedded engine served on its own (`engine:serve`), redis-server, the Quire API and
 * realtime processes (the compiled server, dist-server/serve.js, as `npm start` runs it) and
 * nginx in front, configured as deploy/compose/nginx.conf is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from '../../server/paths';
import { childEnv, TSX_LOADER } from '../helpers/processes';
import { HOSTS, nsOf, type HostName } from './netns';

export const QUIRE_PORT = 4999;
export const ENGINE_PORT = 27017;
export const REDIS_PORT = 6379;
export const MONGODB_URI = `mongodb://${HOSTS.db}:${ENGINE_PORT}/quire`;
export const REDIS_URL = `redis://${HOSTS.redis}:${REDIS_PORT}`;
export const PROXY_URL = `http://${HOSTS.proxy}`;

export interface Host {
  name: HostName;
  child: ChildProcess;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const running = new Set<Host>();

/** Resolves once `address:port` accepts a TCP connection (rejects otherwise). */
export function tcpAnswers(address: string, port: number, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ host: address, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

async function until(check: () => Promise<unknown>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Starts `command` in the host's namespace; resolves once `ready` does. */
async function startIn(
  name: HostName,
  command: string[],
  options: { env?: NodeJS.ProcessEnv; ready(host: Host): Promise<unknown>; timeoutMs?: number },
): Promise<Host> {
  const child = spawn('ip', ['netns', 'exec', nsOf(name), ...command], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const host: Host = {
    name,
    child,
    output: () => output,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  running.add(host);
  void exited.then(() => running.delete(host));
  try {
    await until(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`exited (${child.exitCode ?? child.signalCode}):\n${output}`);
        return options.ready(host);
      },
      options.timeoutMs ?? 60_000,
      `${name} did not start`,
    );
  } catch (error) {
    await host.kill('SIGKILL');
    throw error;
  }
  return host;
}

const printed = (pattern: RegExp) => async (host: Host) => {
  if (!pattern.test(host.output())) throw new Error('not ready yet');
};

export function startEngineHost(dataDir: string): Promise<Host> {
  return startIn(
    'db',
    [
      process.execPath,
      '--import',
      TSX_LOADER,
      path.join(ROOT, 'scripts', 'cli.ts'),
      'engine:serve',
      '--host',
      HOSTS.db,
      '--port',
      String(ENGINE_PORT),
      '--data',
      dataDir,
    ],
    { env: childEnv({}), ready: printed(/Quire engine serving/) },
  );
}

export function startRedisHost(): Promise<Host> {
  return startIn(
    'redis',
    [
      'redis-server',
      '--bind',
      HOSTS.redis,
      '--port',
      String(REDIS_PORT),
      '--protected-mode',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
    ],
    { ready: () => tcpAnswers(HOSTS.redis, REDIS_PORT) },
  );
}

export function startQuireHost(
  name: 'api1' | 'api2' | 'rt1' | 'rt2',
  dataDir: string,
  env: Record<string, string>,
): Promise<Host> {
  return startIn(
    name,
    [process.execPath, '--expose-gc', path.join(ROOT, 'dist-server', 'serve.js')],
    {
      env: childEnv({
        HOST: HOSTS[name],
        PORT: String(QUIRE_PORT),
        ROLE: name.startsWith('api') ? 'api' : 'realtime',
        WORKERS: '1',
        MONGODB_URI,
        REDIS_URL,
        DATA_DIR: dataDir,
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
        GC_AFTER_START: 'false',
        ...env,
      }),
      ready: printed(/Quire is ready at/),
    },
  );
}

/**
 * nginx as deploy/compose/nginx.conf configures it, with the hosts' addresses as upstreams: `/api`
 * and everything else round-robin over the API hosts, `/socket.io` and `/collab` (WebSocket
 * upgrade) hashed by client address over the realtime hosts. A host that refuses a connection is
 * skipped for the request (the request had not been sent, so a POST is retried too) and left out
 * for a few seconds.
 */
export function nginxConfig(dir: string): string {
  // A location that sets any header inherits none from the server block: each sets all of its own.
  const headers = (connection: string) =>
    [
      'proxy_set_header Host $host;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      'proxy_set_header Upgrade $http_upgrade;',
      `proxy_set_header Connection ${connection};`,
    ]
      .map((line) => `      ${line}`)
      .join('\n');
  const upstream = (hosts: HostName[]) =>
    hosts
      .map((h) => `    server ${HOSTS[h]}:${QUIRE_PORT} max_fails=1 fail_timeout=3s;`)
      .join('\n');
  return `
user root;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' close;
  }
  upstream quire_api {
${upstream(['api1', 'api2'])}
    keepalive 16;
  }
  upstream quire_realtime {
    hash $remote_addr consistent;
${upstream(['rt1', 'rt2'])}
  }
  server {
    listen ${HOSTS.proxy}:80;
    client_max_body_size 0;
    proxy_http_version 1.1;
    proxy_connect_timeout 2s;
    location /socket.io/ {
      proxy_pass http://quire_realtime;
${headers('$connection_upgrade')}
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
    }
    location ~ ^/collab/?$ {
      proxy_pass http://quire_realtime;
${headers('$connection_upgrade')}
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
    }
    location / {
      proxy_pass http://quire_api;
${headers('""')}
      proxy_read_timeout 300s;
    }
  }
}
`;
}

export function startProxyHost(dir: string): Promise<Host> {
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(dir));
  return startIn(
    'proxy',
    ['nginx', '-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
    { ready: () => tcpAnswers(HOSTS.proxy, 80) },
  );
}

/** Kills every host still running (after a failure; teardownNetwork kills the rest). */
export async function killAllHosts(): Promise<void> {
  await Promise.all([...running].map((host) => host.kill('SIGKILL')));
}
