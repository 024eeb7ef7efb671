/**
 * A throwaway redis-server for a test file: its own free loopback port, no persistence
 * (`--save '' --appendonly no`), stopped in afterAll. There is no fallback: a test that needs
 * Redis fails when the `redis-server` binary is missing (CI installs it, see .ci/run).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { eventually } from './embedded';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Sends PING over a raw connection; resolves when Redis answers PONG. */
function ping(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ port, host: '127.0.0.1' });
    let answer = '';
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('+PONG')) {
        socket.end();
        resolve();
      }
    });
    socket.on('error', reject);
  });
}

export async function startRedis(): Promise<TestRedis> {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0)
    throw new Error(
      'redis-server is not installed: these tests need it (apt-get install -y redis-server; .ci/run does this)',
    );
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited:\n${output}`);
        return ping(port);
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
