/** Messages between the realtime bench and its socket-client processes (socketClient.ts). */

/**
 * The clock of every time in these messages: `process.hrtime` in microseconds, the machine's
 * monotonic clock, the same in every process (the coordinator's round start is read on it too).
 */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** What a round's push must be for a socket to count it as arrived. */
export type RoundMatch =
  | { event: 'lock'; pageId: number; locked: boolean }
  | { event: 'notice'; marker: string }
  /** A board push whose `cards` hold this card in this list (a move's own push). */
  | { event: 'kanban:changed'; pageId: number; cardId: number; listId: string };

export type ClientRequest =
  | { type: 'connect'; url: string; tokens: string[]; count: number }
  | { type: 'watch'; pageId: number }
  | { type: 'arm'; round: number; match: RoundMatch }
  | { type: 'collect' }
  | { type: 'close' };

export type ClientReply =
  | { type: 'connected'; sockets: number; failures: number; firstError?: string }
  | { type: 'watched'; refused: number }
  | { type: 'armed'; round: number }
  /** Receive times (process.hrtime µs) of the sockets that got the round's push. */
  | { type: 'collected'; round: number; times: number[]; missing: number };
