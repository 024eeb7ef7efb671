/**
 * One socket-client process of the realtime bench (forked by socketClients.ts): it opens its
 * share of the watching sockets and, each round, notes when each of them first receives the
 * round's push. Times are `process.hrtime` microseconds — the machine's monotonic clock, the same
 * in every process — so the coordinator subtracts its own round start from them.
 *
 * Protocol (IPC, request → one answer): connect → connected, watch → watched, arm → armed,
 * collect → collected (answered early, unasked, once every socket of the round has its push),
 * close → exit.
 */
import type { WatchAck } from '../../realtime/socketEvents';
import { connectLean, type LeanSocket } from './leanSocket';
import { openMany } from './openMany';
import {
  monotonicUs,
  type ClientRequest,
  type ClientReply,
  type RoundMatch,
} from './socketClientProtocol';

const CONNECT_TIMEOUT_MS = 20_000;
const ACK_TIMEOUT_MS = 15_000;
const BATCH = 100;

let sockets: LeanSocket[] = [];
let round: {
  number: number;
  match: RoundMatch;
  /** Receive time per socket (µs), 0 until it arrives. */
  at: Float64Array;
  count: number;
  reported: boolean;
} | null = null;

function reply(message: ClientReply): void {
  process.send!(message);
}

function report(): void {
  if (!round || round.reported) return;
  round.reported = true;
  const times: number[] = [];
  for (const t of round.at) if (t > 0) times.push(t);
  reply({ type: 'collected', round: round.number, times, missing: sockets.length - times.length });
}

const EVENTS = ['lock', 'notice', 'kanban:changed'] as const;

function matches(
  match: RoundMatch,
  event: (typeof EVENTS)[number],
  payload: Record<string, unknown>,
) {
  if (match.event !== event) return false;
  if (match.event === 'lock')
    return payload.page_id === match.pageId && payload.locked === match.locked;
  if (match.event === 'kanban:changed') {
    if (payload.page_id !== match.pageId || !Array.isArray(payload.cards)) return false;
    return (payload.cards as Array<{ page_id?: unknown; list_id?: unknown }>).some(
      (card) => card.page_id === match.cardId && card.list_id === match.listId,
    );
  }
  return (
    typeof payload.message_content === 'string' && payload.message_content.includes(match.marker)
  );
}

/** Opens `count` sockets, BATCH at a time, tokens taken round-robin. */
function connectAll(url: string, tokens: string[], count: number) {
  return openMany(count, BATCH, (i) =>
    connectLean(url, tokens[i % tokens.length], CONNECT_TIMEOUT_MS),
  );
}

/** Watches the page on every socket, BATCH at a time; returns how many were refused. */
async function watchAll(pageId: number): Promise<number> {
  let refused = 0;
  for (let start = 0; start < sockets.length; start += BATCH) {
    const acks = await Promise.allSettled(
      sockets
        .slice(start, start + BATCH)
        .map((s) => s.emitWithAck('watch', { page_id: pageId }, ACK_TIMEOUT_MS)),
    );
    refused += acks.filter((a) => {
      if (a.status === 'rejected') return true;
      const ack = a.value as WatchAck | null;
      return typeof ack !== 'object' || ack === null || !('ok' in ack);
    }).length;
  }
  return refused;
}

function listen(socket: LeanSocket, index: number): void {
  for (const event of EVENTS)
    socket.on(event, (payload: unknown) => {
      const current = round;
      if (!current || current.at[index] > 0) return;
      if (!matches(current.match, event, payload as Record<string, unknown>)) return;
      current.at[index] = monotonicUs();
      if (++current.count === sockets.length) report();
    });
}

process.on('message', async (message: ClientRequest) => {
  switch (message.type) {
    case 'connect': {
      const connected = await connectAll(message.url, message.tokens, message.count);
      sockets = connected.sockets;
      sockets.forEach(listen);
      reply({
        type: 'connected',
        sockets: sockets.length,
        failures: connected.failures,
        firstError: connected.firstError,
      });
      break;
    }
    case 'watch': {
      const refused = await watchAll(message.pageId);
      // The connections' and watches' garbage is collected now, not in a measured round: a
      // collection in the load tool would delay its reading and be charged to the server.
      globalThis.gc?.();
      reply({ type: 'watched', refused });
      break;
    }
    case 'arm':
      round = {
        number: message.round,
        match: message.match,
        at: new Float64Array(sockets.length),
        count: 0,
        reported: false,
      };
      if (sockets.length === 0) report();
      reply({ type: 'armed', round: message.round });
      break;
    case 'collect':
      report();
      break;
    case 'close':
      for (const socket of sockets) socket.close();
      process.exit(0);
  }
});
