/**
 * The watching sockets of the realtime bench, spread over several client processes
 * (socketClient.ts). A thousand watchers are a thousand browsers, each reading its own push; one
 * process reading all of them would add its own queue — a push to the last socket waits for the
 * client to take in the 999 before it — to every figure. With `processes` = 1 the sockets share
 * one process, as before.
 */
import type { ChildProcess } from 'node:child_process';
import { forkHelper, replyFrom } from './children';
import type { ClientReply, ClientRequest, RoundMatch } from './socketClientProtocol';

const CLIENT_SCRIPT = 'scripts/bench/socketClient.ts';
const REPLY_TIMEOUT_MS = 120_000;

export interface SocketClients {
  /** Sockets connected, over every process. */
  sockets: number;
  failures: number;
  firstError?: string;
  pids: number[];
  /** Watches the page on every socket; resolves with how many watches were refused. */
  watch(pageId: number): Promise<number>;
  /** Every process listens for the round's push; resolves once all of them do. */
  arm(round: number, match: RoundMatch): Promise<void>;
  /**
   * Receive times (process.hrtime µs) of the armed round, once every socket has its push or
   * `timeoutMs` have passed (`missing`: sockets without it). Called once after every `arm`.
   */
  collect(timeoutMs: number): Promise<{ times: number[]; missing: number }>;
  close(): Promise<void>;
}

function send(child: ChildProcess, message: ClientRequest): void {
  child.send(message);
}

/** The next reply of this type (and round) from the child. */
function replyOf<T extends ClientReply['type']>(
  child: ChildProcess,
  type: T,
  round?: number,
): Promise<Extract<ClientReply, { type: T }>> {
  return replyFrom<ClientReply, T>(child, type, {
    who: `socket client ${child.pid}`,
    timeoutMs: REPLY_TIMEOUT_MS,
    accept: (message) => round === undefined || !('round' in message) || message.round === round,
  });
}

/** Opens `count` sockets over `processes` client processes, tokens taken round-robin. */
export async function openSocketClients(
  url: string,
  tokens: string[],
  count: number,
  processes: number,
): Promise<SocketClients> {
  const n = Math.max(1, Math.min(processes, count || 1));
  // --expose-gc: each client collects its set-up garbage before the rounds (socketClient.ts).
  const children = Array.from({ length: n }, () => forkHelper(CLIENT_SCRIPT, ['--expose-gc']));
  // Contiguous shares; socket i overall keeps token i (mod the token count).
  let start = 0;
  const connected = await Promise.all(
    children.map((child, p) => {
      const share = Math.floor(count / n) + (p < count % n ? 1 : 0);
      const offset = start % Math.max(1, tokens.length);
      start += share;
      const reply = replyOf(child, 'connected');
      send(child, {
        type: 'connect',
        url,
        tokens: [...tokens.slice(offset), ...tokens.slice(0, offset)],
        count: share,
      });
      return reply;
    }),
  );
  // The armed round's reports: listened for from the moment it is armed, as a process reports
  // on its own as soon as all its sockets have the push (which can be before `collect`).
  let reports: Promise<Array<Extract<ClientReply, { type: 'collected' }>>> | null = null;
  return {
    sockets: connected.reduce((sum, c) => sum + c.sockets, 0),
    failures: connected.reduce((sum, c) => sum + c.failures, 0),
    firstError: connected.find((c) => c.firstError)?.firstError,
    pids: children.map((c) => c.pid!),
    async watch(pageId) {
      const replies = await Promise.all(
        children.map((child) => {
          const reply = replyOf(child, 'watched');
          send(child, { type: 'watch', pageId });
          return reply;
        }),
      );
      return replies.reduce((sum, r) => sum + r.refused, 0);
    },
    async arm(round, match) {
      reports = Promise.all(children.map((child) => replyOf(child, 'collected', round)));
      reports.catch(() => {}); // awaited by collect
      await Promise.all(
        children.map((child) => {
          const reply = replyOf(child, 'armed', round);
          send(child, { type: 'arm', round, match });
          return reply;
        }),
      );
    },
    async collect(timeoutMs) {
      if (!reports) throw new Error('collect without arm');
      const armed = reports;
      reports = null;
      const timer = setTimeout(() => {
        for (const child of children) send(child, { type: 'collect' });
      }, timeoutMs);
      const all = await armed.finally(() => clearTimeout(timer));
      return {
        times: all.flatMap((r) => r.times),
        missing: all.reduce((sum, r) => sum + r.missing, 0),
      };
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              send(child, { type: 'close' });
            }),
        ),
      );
    },
  };
}
