/**
 * The domain-event catalogue and the in-process bus.
 *
 * Models publish after a successful write; realtime (and anything else that reacts: search index,
 * notifications) subscribes. Payloads carry ids and the few facts a listener needs to pick rooms,
 * never document bodies or secrets: a listener that needs more loads it through models/.
 *
 * The bus is in-process. With REDIS_URL set, a transport (realtime's issue) relays events between
 * processes by subscribing here and re-publishing what it receives from other processes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { requestDeliveries } from './requestClient';

/** A kanban board page's JSON (ShowDoc's format; models/kanban/format.ts reads and writes it). */
export interface KanbanBoardShape {
  lists: Array<{ id: string; title: string; position: number }>;
  tasks_order: Record<string, string[]>;
  archived_lists: Array<{ id: string; title: string; position: number }>;
  archived_tasks_order: Record<string, string[]>;
  meta: { version: number; last_updated: number };
}

/** A kanban card: a task page's title and the task fields a board shows. */
export interface KanbanCardShape {
  page_id: number;
  page_title: string;
  list_id: string;
  description: string;
  assignee_uid: string;
  assignee_username: string;
  creator_uid: string;
  creator_username: string;
  due_date: string;
  tags: Array<{ color: string; text: string }>;
  priority: string;
  linked_pages: Array<{ item_id: string; page_id: string; page_title: string }>;
  completed: boolean;
  updated_at: number;
}

/** Every domain event: name → payload. Add new events here, nowhere else. */
export interface DomainEvents {
  /** An account was created (registration, CLI, first-start admin, SSO). */
  'user.created': { uid: number; username: string; groupid: number };
  /**
   * A user's row changed or was deleted (profile, password, group, login time): every process
   * drops what it keeps of that user (the read model's token → user entries).
   */
  'user.changed': { uid: number };
  /** An item's own fields changed, or it was created, deleted, archived or transferred. */
  'item.changed': {
    itemId: number;
    change: 'created' | 'updated' | 'deleted' | 'archived' | 'transferred' | 'restored';
    byUid: number;
  };
  /** Who may see an item changed: member or team binding added, removed or its authority changed. */
  'membership.changed': {
    itemId: number;
    /** Users whose access changed (their item lists need refreshing). */
    uids: number[];
    change: 'added' | 'removed' | 'updated';
    byUid: number;
  };
  /** A page version was stored (REST save, open API, import, history restore). */
  'page.saved': {
    itemId: number;
    pageId: number;
    catId: number;
    byUid: number;
    created: boolean;
    /**
     * The version this save stored of the text it replaced (`page_history_id`; absent for a new
     * page): the webhook digest diffs exactly this save, even when a later save came first.
     */
    versionId?: number;
    /** Where the write came from: a live Yjs document must not re-apply its own saves. */
    origin: 'rest' | 'collab' | 'open-api' | 'import' | 'history' | 'kanban';
    /** "Save and notify": remind the page's subscribers with this text (null = no notice). */
    notify?: { content: string } | null;
    /** The save's time: the item's `last_update_time` is now at least this (read models patch it). */
    at?: number;
    /**
     * The saving process put the text into the page's document open there: the change reaches
     * the same document open in other processes as a Yjs update (Redis), like any edit, and they
     * must not apply the saved text again — by the time this event arrives their editors may have
     * typed after it, and setting the text would undo that.
     */
    live?: boolean;
    /**
     * The save came from an AI agent through an MCP token: who it is ("Claude via token
     * 'docs-bot'"), for presence in the open document and the history's author line.
     */
    agent?: { label: string; tokenId: number };
  };
  /**
   * A spreadsheet page (item type 4) was saved: the cells whose text changed, or null when the
   * workbook's shape changed (or too many cells did) and viewers should reload it. The one event
   * that carries page text: cell texts are tiny, and only the page's room (readers of the page,
   * checked on joining) receives them, which spares every viewer a full reload per cell edit.
   */
  'sheet.changed': {
    itemId: number;
    pageId: number;
    byUid: number;
    cells: Array<{ sheet: number; row: number; col: number; text: string }> | null;
  };
  /**
   * A kanban board (item type 6) changed: a card moved, a task or list was added, edited,
   * archived… Like `sheet.changed` it carries data — the board's lists and order after the
   * change (`board`, null when only tasks changed) and the cards it touched — so every open board
   * applies it without a reload. `version` is the board's `meta.version` after the write: writes
   * to one board are serialised, so a client keeps the highest version it has seen.
   */
  'kanban.changed': {
    itemId: number;
    boardPageId: number;
    byUid: number;
    version: number;
    board: KanbanBoardShape | null;
    cards: KanbanCardShape[];
    /** Task page ids that left the board (deleted). */
    removed: number[];
  };
  /** A page came back from the recycle bin. */
  'page.restored': { itemId: number; pageId: number; byUid: number };
  /** A page went to the recycle bin (or was removed with its catalog). */
  'page.deleted': { itemId: number; pageId: number; byUid: number };
  /** Pages were removed for good (recycle-bin purge): drop what hangs off them (files, subscriptions). */
  'page.purged': { itemId: number; pageIds: number[] };
  /** A file was uploaded, bound to or unbound from pages, or deleted (attachment counts changed). */
  'attachment.changed': {
    fileId: number;
    /** The uploader. */
    uid: number;
    /** The file's item (0 = a personal file). */
    itemId: number;
    /** Pages whose attachment list changed. */
    pageIds: number[];
    /** 'extracted': the file's text for search was read (models/files/attachmentText.ts). */
    change: 'uploaded' | 'bound' | 'unbound' | 'deleted' | 'extracted';
  };
  /** Who is subscribed to these pages' updates changed (models/notices drops its cached lists). */
  'subscriptions.changed': { pageIds: number[] };
  /** A page's share link was created, replaced, removed or found expired. */
  'share.changed': { pageId: number };
  /** The item's menu (catalogs, page titles, order) changed and readers should reload it. */
  'menu.changed': { itemId: number; byUid: number };
  /** A user's read markers for an item were written (models/readMarkers drops its cached copy). */
  'reads.changed': { uid: number; itemId: number };
  /** A page lock was taken, renewed or released (`lock` null = released). */
  'lock.changed': {
    itemId: number;
    pageId: number;
    lock: { uid: number; username: string; lockTo: number } | null;
  };
  /** A page comment was added or deleted (page_comment/*). */
  'comment.changed': {
    itemId: number;
    pageId: number;
    commentId: number;
    change: 'added' | 'deleted';
    byUid: number;
  };
  /** A page's suggestions changed (suggest mode): proposed, accepted or rejected. */
  'suggestion.changed': {
    itemId: number;
    pageId: number;
    change: 'proposed' | 'accepted' | 'rejected';
    byUid: number;
  };
  /**
   * A reminder batch or an announcement was created for these users (announcements: `uids` empty
   * = all). The one event of a batch: the recipients' unread counts changed with it (no
   * `unread.changed` follows). It carries the notice's text as every recipient receives it (at
   * most a reminder's 1,000 or an announcement's 20,000 characters): each process pushes it to its
   * own sockets at once, where loading it back would put a database round trip per process on the
   * way to every recipient.
   */
  'notice.created': {
    kind: 'remind' | 'announce';
    uids: number[];
    messageContentId: number;
    content: {
      from_name: string;
      message_type: string;
      message_content: string;
      object_type: string;
      object_id: number;
      /** `YYYY-MM-DD HH:MM:SS`; later than now = a scheduled announcement, not news yet. */
      addtime: string;
    };
  };
  /** These users' unread counts changed (one user marking read or deleting a notice). */
  'unread.changed': { uids: number[] };
  /**
   * A new version of an item's followed API contract changed it (models/contracts): how many
   * changes, how many of them breaking. The changes themselves are the contract's `last_diff`.
   */
  'contract.changed': {
    itemId: number;
    byUid: number;
    version: string;
    breaking: number;
    changes: number;
  };
  /** How far a file import of this user has got (pushed while the import runs). */
  'import.progress': { uid: number; importId: string; done: number; total: number };
  /**
   * A test flow run (`flow/run`) finished a step (`step`) or ended (`finished`). Carries no request
   * or answer contents: everyone watching the item sees it.
   */
  'flow.progress': {
    itemId: number;
    flowId: number;
    runId: string;
    byUid: number;
    done: number;
    total: number;
    finished: boolean;
    step: {
      round: number;
      flow_page_id: number;
      page_id: number;
      page_title: string;
      method: string;
      status: number;
      pass: boolean;
      duration_ms: number;
      /** Why it failed ("HTTP 500", "Nothing found for token"): never request or answer contents. */
      error: string;
    } | null;
  };
  /** Every login token of the user was revoked (logout, password change): live sessions end. */
  'session.revoked': { uid: number };
  /**
   * Data was written behind the models' backs (a dump restored, a ShowDoc database migrated):
   * every process empties its read model.
   */
  'data.replaced': Record<string, never>;
  /** Site options were written (admin settings): every process drops its settings cache. */
  'settings.changed': { names: string[] };
}

export type EventName = keyof DomainEvents;
export type EventHandler<N extends EventName> = (payload: DomainEvents[N]) => void | Promise<void>;

export interface PublishOptions {
  /** Set by the cross-process relay when it re-publishes an event another process published. */
  remote?: boolean;
  /** Delivered at once even inside `holdEvents` (progress reports of the held work itself). */
  immediate?: boolean;
}

export interface SubscribeOptions {
  /**
   * Only events published in this process (not relayed ones): for listeners that write, such as
   * reminders, which must run once per event, not once per process.
   */
  localOnly?: boolean;
  /**
   * Run inside `publish` itself, before any other listener: for read caches, which must forget
   * an entry before anything (another listener, the writer's own next read) can read it again.
   * Such a handler must be quick and must not throw.
   */
  synchronous?: boolean;
}

export interface EventBus {
  publish<N extends EventName>(name: N, payload: DomainEvents[N], options?: PublishOptions): void;
  /** Returns the function that unsubscribes. */
  subscribe<N extends EventName>(
    name: N,
    handler: EventHandler<N>,
    options?: SubscribeOptions,
  ): () => void;
  /**
   * Registers an event's hand-over to other processes (a relay's publish) still under way, so
   * `delivered()` can wait for it.
   */
  track(delivery: Promise<unknown>): void;
  /**
   * Resolves once every hand-over registered so far has completed (or failed): the API answers a
   * write only after its events have left for the other processes, which read them before any
   * request the writer's client sends next (revocations take effect on the next request). Inside
   * a request (`runForClient`) only that request's own hand-overs are waited for.
   */
  delivered(): Promise<void>;
}

interface HeldEvent {
  name: EventName;
  payload: unknown;
  options: PublishOptions;
}

const held = new AsyncLocalStorage<HeldEvent[]>();

/**
 * Runs `work` with the events it publishes held back, and returns them with its result. A
 * transaction publishes them once it has committed (`releaseEvents`) and drops them when it rolls
 * back, so no listener hears of a write that never happened.
 */
export async function holdEvents<T>(
  work: () => Promise<T>,
): Promise<{ result: T; events: HeldEvent[] }> {
  const queue: HeldEvent[] = [];
  const result = await held.run(queue, work);
  return { result, events: queue };
}

/** Whether the caller runs inside `holdEvents` (work whose events wait for a commit). */
export function eventsHeld(): boolean {
  return held.getStore() !== undefined;
}

/** Publishes events held by `holdEvents`, in their order. */
export function releaseEvents(bus: EventBus, list: HeldEvent[]): void {
  for (const e of list) bus.publish(e.name, e.payload as DomainEvents[typeof e.name], e.options);
}

/**
 * A bus whose handlers run after the current operation (queueMicrotask), so a slow or failing
 * listener never delays or fails the write that published the event. Failures go to `onError`.
 */
export function createEventBus(
  onError: (error: unknown, name: EventName) => void = () => {},
): EventBus {
  const handlers = new Map<EventName, Set<EventHandler<EventName>>>();
  const localOnly = new WeakSet<EventHandler<EventName>>();
  const synchronous = new WeakSet<EventHandler<EventName>>();
  const inFlight = new Set<Promise<unknown>>();
  return {
    track(delivery) {
      const own = requestDeliveries();
      const forget = () => {
        inFlight.delete(settled);
        own?.delete(settled);
      };
      const settled: Promise<unknown> = delivery.then(forget, forget);
      inFlight.add(settled);
      own?.add(settled);
    },
    delivered() {
      const waiting = requestDeliveries() ?? inFlight;
      if (!waiting.size) return Promise.resolve();
      return Promise.allSettled([...waiting]).then(() => undefined);
    },
    publish(name, payload, options = {}) {
      const queue = options.immediate ? undefined : held.getStore();
      if (queue) {
        queue.push({ name, payload, options });
        return;
      }
      const set = handlers.get(name);
      if (!set) return;
      const list = [...set];
      for (const handler of list) {
        if (!synchronous.has(handler) || (options.remote && localOnly.has(handler))) continue;
        try {
          void (handler as EventHandler<typeof name>)(payload);
        } catch (error) {
          onError(error, name);
        }
      }
      for (const handler of list) {
        if (synchronous.has(handler) || (options.remote && localOnly.has(handler))) continue;
        queueMicrotask(() => {
          try {
            Promise.resolve((handler as EventHandler<typeof name>)(payload)).catch((error) =>
              onError(error, name),
            );
          } catch (error) {
            onError(error, name);
          }
        });
      }
    },
    subscribe(name, handler, options = {}) {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(handler as EventHandler<EventName>);
      if (options.localOnly) localOnly.add(handler as EventHandler<EventName>);
      if (options.synchronous) synchronous.add(handler as EventHandler<EventName>);
      return () => set.delete(handler as EventHandler<EventName>);
    },
  };
}
