/**
 * The steady load the topology test keeps up through every fault, all through the proxy:
 * - HTTP: readers (`page/info`), savers (`page/save`: new pages and updates of their own, every
 *   acknowledged save recorded with its content), a notifier ("save and notify" on one page, so
 *   every live user gets a reminder and new unread counts) and a lock churner (takes and
 *   releases one page's lock, so watchers get lock pushes);
 * - live sockets, each behaving as the web client does (web/live/socket.ts: WebSocket only,
 *   reconnecting by itself after 1 s with backoff): on every (re)connect it loads the current
 *   state over REST (`message/getUnread`) and watches its item and pages again (the watch ack
 *   carries each page's lock), then follows the `notice`, `unread` and `lock` pushes.
 * Every answer is counted in the phase it arrived in (errors by kind, HTTP status and code).
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type {
  ClientToServerEvents,
  LockPayload,
  ServerToClientEvents,
  WatchAck,
} from '../../realtime/socketEvents';
import { BROWSER_UA } from '../helpers/client';
import { PROXY_URL } from './hosts';

export interface Answer {
  ok: boolean;
  /** HTTP status, 0 when no answer came (connection refused, reset, timed out). */
  status: number;
  code: number;
  data: unknown;
  ms: number;
  error?: string;
}

/** Failures of one kind of request in one phase, by what the client saw. */
export interface PhaseCounts {
  ok: number;
  failed: number;
  /** `HTTP 503 / 10505`, `no answer: …` → how many. */
  outcomes: Map<string, number>;
  maxMs: number;
}

export class Recorder {
  phase = 'steady';
  readonly counts = new Map<string, Map<string, PhaseCounts>>();

  count(kind: string, answer: Answer): void {
    let byKind = this.counts.get(this.phase);
    if (!byKind) this.counts.set(this.phase, (byKind = new Map()));
    let c = byKind.get(kind);
    if (!c) byKind.set(kind, (c = { ok: 0, failed: 0, outcomes: new Map(), maxMs: 0 }));
    c.maxMs = Math.max(c.maxMs, answer.ms);
    if (answer.ok) {
      c.ok++;
      return;
    }
    c.failed++;
    const what = answer.status
      ? `HTTP ${answer.status} / ${answer.code}`
      : `no answer (${answer.error})`;
    c.outcomes.set(what, (c.outcomes.get(what) ?? 0) + 1);
  }

  of(phase: string, kind: string): PhaseCounts {
    return this.counts.get(phase)?.get(kind) ?? { ok: 0, failed: 0, outcomes: new Map(), maxMs: 0 };
  }
}

/** One ShowDoc API call through the proxy, never throwing: what the client saw. */
export async function call(
  route: string,
  token: string,
  params: Record<string, string | number> = {},
  // Long enough for a request the database host's crash caught in flight: the driver retries it
  // once a server answers again, for up to its 15 s server selection (then 503).
  timeoutMs = 30_000,
): Promise<Answer> {
  const body = new URLSearchParams({ user_token: token });
  for (const [k, v] of Object.entries(params)) body.append(k, String(v));
  const started = Date.now();
  try {
    const response = await fetch(`${PROXY_URL}/api/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const ms = Date.now() - started;
    let parsed: { error_code?: number; data?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return { ok: false, status: response.status, code: -1, data: text.slice(0, 100), ms };
    }
    const code = Number(parsed.error_code ?? -1);
    return {
      ok: response.status === 200 && code === 0,
      status: response.status,
      code,
      data: parsed.data,
      ms,
    };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return {
      ok: false,
      status: 0,
      code: -1,
      data: null,
      ms: Date.now() - started,
      error: e.cause?.code ?? e.name,
    };
  }
}

/** A page as its savers wrote it: every content sent, in order, and which were acknowledged. */
export interface SavedPage {
  pageId: number;
  attempts: { content: string; acked: boolean }[];
}

export interface LoadOptions {
  recorder: Recorder;
  itemId: number;
  /** Tokens of the users who save (one loop each) and read. */
  savers: string[];
  readers: string[];
  notifier: { token: string; pageId: number };
  churner: { token: string; pageId: number };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the HTTP loops until `stop()`; `saved` holds every page the savers made. */
export function startLoad(options: LoadOptions) {
  const { recorder, itemId } = options;
  const saved = new Map<number, SavedPage>();
  let running = true;
  let sequence = 0;

  async function saverLoop(token: string, index: number): Promise<void> {
    const mine: SavedPage[] = [];
    while (running) {
      const update = mine.length > 0 && sequence % 3 === 0 ? mine[sequence % mine.length] : null;
      const content = `topology saver ${index} write ${++sequence} ${Date.now()}`;
      if (update) update.attempts.push({ content, acked: false });
      const answer = await call('page/save', token, {
        item_id: itemId,
        ...(update ? { page_id: update.pageId } : { cat_id: 0 }),
        page_title: update ? `saver ${index} page ${update.pageId}` : `saver ${index} ${sequence}`,
        page_content: content,
      });
      recorder.count('save', answer);
      if (answer.ok) {
        if (update) update.attempts[update.attempts.length - 1].acked = true;
        else {
          const pageId = Number((answer.data as { page_id: number | string }).page_id);
          const page = { pageId, attempts: [{ content, acked: true }] };
          saved.set(pageId, page);
          mine.push(page);
        }
      }
      await pause(100);
    }
  }

  async function readerLoop(token: string): Promise<void> {
    while (running) {
      const ids = [...saved.keys()];
      if (ids.length) {
        const pageId = ids[Math.floor(Math.random() * ids.length)];
        recorder.count('read', await call('page/info', token, { page_id: pageId }));
      }
      await pause(50);
    }
  }

  /** One "save and notify" per second, and one lock change every two seconds. */
  let notices = 0;
  async function notifierLoop(): Promise<void> {
    const { token, pageId } = options.notifier;
    while (running) {
      const answer = await call('page/save', token, {
        item_id: itemId,
        page_id: pageId,
        page_title: 'notify page',
        page_content: `notice ${++notices}`,
        is_notify: 1,
        notify_content: `notice ${notices}`,
      });
      recorder.count('notify', answer);
      await pause(1000);
    }
  }
  async function churnLoop(): Promise<void> {
    const { token, pageId } = options.churner;
    let take = true;
    while (running) {
      const answer = await call('page/setLock', token, {
        item_id: itemId,
        page_id: pageId,
        ...(take ? {} : { lock_to: 1000 }),
      });
      recorder.count('lock', answer);
      if (answer.ok) take = !take;
      await pause(2000);
    }
  }

  const loops = [
    ...options.savers.map((token, i) => saverLoop(token, i)),
    ...options.readers.map((token) => readerLoop(token)),
    notifierLoop(),
    churnLoop(),
  ];
  return {
    saved,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** One live socket of one user, resynchronising as the web client does. */
export class LiveClient {
  readonly socket: ClientSocket;
  /** Connections made (the first one included) and drops seen. */
  connects = 0;
  drops = 0;
  /** Watches whose ack came back (the state is resynchronised) since the last connect. */
  synced = false;
  /** The newest reminder this client knows of (REST on connect, `notice` pushes). */
  latestRemind = 0;
  unread: { remind: number; announce: number } | null = null;
  /** page id → lock holder's uid (0: free), from watch acks and `lock` pushes. */
  readonly locks = new Map<number, number>();
  errors: string[] = [];
  /** Why the connection dropped, each time (Socket.IO's reason). */
  readonly dropReasons: string[] = [];

  constructor(
    readonly uid: number,
    readonly token: string,
    readonly itemId: number,
    /** Pages to watch: mode `editing` on the one whose lock this user holds. */
    readonly pages: { pageId: number; mode: 'viewing' | 'editing' }[],
    localAddress: string,
  ) {
    const options: Partial<ManagerOptions & SocketOptions> & { localAddress: string } = {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 30_000,
      auth: { user_token: token },
      // Each client from its own address (engine.io hands it to `ws`), so the proxy's hash
      // spreads the clients over the realtime hosts.
      localAddress,
    };
    this.socket = io(PROXY_URL, options);
    this.socket.on('connect', () => {
      this.connects++;
      void this.resync();
    });
    this.socket.on('disconnect', (reason) => {
      this.drops++;
      this.dropReasons.push(reason);
      this.synced = false;
    });
    this.socket.on('notice', (n) => {
      if (n.kind === 'remind')
        this.latestRemind = Math.max(this.latestRemind, n.message_content_id);
    });
    this.socket.on('unread', (u) => (this.unread = u));
    this.socket.on('lock', (l: LockPayload) =>
      this.locks.set(l.page_id, l.locked ? l.lock_uid : 0),
    );
  }

  private async resync(): Promise<void> {
    const unread = await call('message/getUnread', this.token);
    if (unread.ok) {
      const remind = (unread.data as { remind: { message_content_id?: string } | [] }).remind;
      if (!Array.isArray(remind) && remind.message_content_id)
        this.latestRemind = Math.max(this.latestRemind, Number(remind.message_content_id));
    } else this.errors.push(`getUnread: HTTP ${unread.status} / ${unread.code}`);
    try {
      const item = (await this.socket
        .timeout(10_000)
        .emitWithAck('watch', { item_id: this.itemId })) as WatchAck;
      if (!('ok' in item)) throw new Error(`item watch refused: ${item.error_code}`);
      for (const { pageId, mode } of this.pages) {
        const ack = (await this.socket
          .timeout(10_000)
          .emitWithAck('watch', { page_id: pageId, mode })) as WatchAck;
        if (!('ok' in ack)) throw new Error(`page watch refused: ${ack.error_code}`);
        const lock = ack.lock;
        this.locks.set(pageId, lock && lock.locked ? lock.lock_uid : 0);
      }
      if (this.socket.connected && unread.ok) this.synced = true;
      // A failed REST resync is tried again, as a client would on its next poll.
      else if (this.socket.connected) setTimeout(() => void this.resync(), 1000);
    } catch (error) {
      this.errors.push((error as Error).message);
      if (this.socket.connected) setTimeout(() => void this.resync(), 1000);
    }
  }

  close(): void {
    this.socket.disconnect();
  }
}
