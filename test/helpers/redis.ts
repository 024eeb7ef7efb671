/**
 * A throwaway redis-server for a test file: its own free loopback port, no persistence
 * (`--save '' --appendonly no`), stopped in afterAll. There is no fallback: a test that needs
 * Redis fails when the `redis-server` binary is missing (CI installs it, see .ci/run).
 */
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { startDaemon } from './daemon';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
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
  const daemon = await startDaemon({
    command: 'redis-server',
    args: (port) => [
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
    ready: ping,
    timeoutMs: 10_000,
    intervalMs: 50,
  });
  return {
    url: `redis://127.0.0.1:${daemon.port}`,
    port: daemon.port,
    stop: daemon.stop,
  };
}
