/**
 * Starts an external daemon for a test file (redis-server, slapd): a free loopback port, the
 * process spawned with it, polled with `ready(port)` until it answers, killed if it never does.
 * `stop()` ends it with SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import net from 'node:net';
import { eventually } from './embedded';

export interface TestDaemon {
  port: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startDaemon(options: {
  command: string;
  args(port: number): string[];
  /** Resolves when the daemon answers on `port`; rejects (or throws) while it does not yet. */
  ready(port: number): Promise<unknown>;
  timeoutMs: number;
  intervalMs?: number;
}): Promise<TestDaemon> {
  const port = await freePort();
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
  const child: ChildProcess = spawn(options.command, options.args(port), { stdio });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      () => {
        if (child.exitCode !== null)
          throw new Error(`${options.command} exited with ${child.exitCode}:\n${output}`);
        return options.ready(port);
      },
      { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves once something accepts a TCP connection on the loopback port. */
export function canConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
