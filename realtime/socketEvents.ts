/**
 * THE socket-event catalogue: every event that crosses the Socket.IO connection, both ways, with
 * its payload. The server (realtime/) emits and handles exactly these; the web client imports the
 * types only (`import type { … } from '../../realtime/socketEvents'`) and gets one discriminated
 * union (`ServerEvent`) to patch its cached data from.
 *
 * Field names follow the ShowDoc API (`page_id`, `lock_uid`, …) so the web can treat a pushed
 * value like the one it would have fetched. Ids are numbers; times are Unix seconds.
 *
 * Connecting: `io(url, { path: '/socket.io', auth: { user_token } })`. A missing, unknown or
 * expired token — or a `uid` claim that is not the token's user — refuses the connection with a
 * `connect_error` whose `data` is `{ error_code: 10102 }`. Every socket is in its user's room and
 * receives `unread`, `notice` and `access:changed` without asking; item and page events arrive
 * only after a successful `watch`.
 *
 * Pushes are changes, not state: on (re)connect the client loads the current state over REST
 * (e.g. `message/getUnread`) and watches again — rooms do not survive a reconnect. While the
 * socket is down it falls back to the spec's polling.
 */

// ------------------------------------------------------------------------------------------------
// Server → client payloads

/** Unread notice counts of the connected user (the badge numbers). */
export interface UnreadPayload {
  /** Unread reminders (page "save and notify", comments). */
  remind: number;
  /** Announcements the user may see and has not read. */
  announce: number;
}

/**
 * A new reminder or announcement for this user. Site-wide announcements are pushed to every
 * connected user without a following `unread` (counting for everyone at once would be a query per
 * user): on `notice` of kind `announce` the client adds one to its announce badge or refetches.
 */
export interface NoticePayload {
  kind: 'remind' | 'announce';
  message_content_id: number;
  from_name: string;
  /** The notice text (HTML for announcements, as the REST lists return it). */
  message_content: string;
  /** `page` for page reminders ('' for announcements). */
  object_type: string;
  object_id: number;
  /** `YYYY-MM-DD HH:MM:SS`, as stored. */
  addtime: string;
}

/** A page lock taken, renewed, released or swept. Pushed to `page:<id>`. */
export type LockPayload =
  | {
      item_id: number;
      page_id: number;
      locked: true;
      lock_uid: number;
      lock_username: string;
      /** Unix seconds until which the lock holds. */
      lock_to: number;
    }
  | { item_id: number; page_id: number; locked: false };

/**
 * A page version was stored. Pushed to `page:<id>` — except a board operation's saves of a kanban
 * board or task page, which its watchers get as `kanban:changed`.
 */
export interface PageSavedPayload {
  item_id: number;
  page_id: number;
  cat_id: number;
  page_title: string;
  author: { uid: number; username: string };
  /** Unix seconds of the save. */
  addtime: number;
  /** Where the save came from (`collab` = the shared editor's explicit save). */
  origin: 'rest' | 'collab' | 'open-api' | 'import' | 'history' | 'kanban';
  created: boolean;
}

/**
 * A spreadsheet page was saved: the cells whose text changed (`sheet` is the sheet's index), or
 * `cells: null` when the workbook's shape changed and it must be reloaded. Pushed to `page:<id>`
 * next to `page:saved`, so open spreadsheet views update cell by cell without reloading.
 */
export interface SheetChangedPayload {
  item_id: number;
  page_id: number;
  /** Who saved (the saver's own views already show these cells). */
  by_uid: number;
  cells: Array<{ sheet: number; row: number; col: number; text: string }> | null;
}

/** A kanban card: a task page's title and the task fields a board shows (`kanban/board`'s cards). */
export interface KanbanCardPayload {
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

/**
 * A kanban board changed (a card moved, a task or list added, edited, archived…). Pushed to
 * `page:<board page id>`: `board` is the stored board after the change (ShowDoc's board JSON,
 * null when only cards changed), `version` its `meta.version` — writes to a board are serialised,
 * so a client applies a board only when its version is above the one it shows — `cards` the cards
 * the change touched and `removed` the task ids that left the board.
 */
export interface KanbanChangedPayload {
  item_id: number;
  page_id: number;
  by_uid: number;
  version: number;
  board: {
    lists: Array<{ id: string; title: string; position: number }>;
    tasks_order: Record<string, string[]>;
    archived_lists: Array<{ id: string; title: string; position: number }>;
    archived_tasks_order: Record<string, string[]>;
    meta: { version: number; last_updated: number };
  } | null;
  cards: KanbanCardPayload[];
  removed: number[];
}

/** The page went to the recycle bin; watchers have been removed from its room. */
export interface PageDeletedPayload {
  item_id: number;
  page_id: number;
}

/** A comment on the page was added or deleted: reload the comment list. Pushed to `page:<id>`. */
export interface PageCommentsPayload {
  item_id: number;
  page_id: number;
  comment_id: number;
  change: 'added' | 'deleted';
}

/**
 * The page's suggestions changed (suggest mode): proposed, accepted or rejected. Reload them with
 * suggestion/list. Pushed to `page:<id>`.
 */
export interface PageSuggestionsPayload {
  item_id: number;
  page_id: number;
  change: 'proposed' | 'accepted' | 'rejected';
}

/** The item's menu (catalogs, page titles, order) changed: reload it. Pushed to `item:<id>`. */
export interface MenuChangedPayload {
  item_id: number;
}

/** The item itself changed (name, settings, archived, deleted…). Pushed to `item:<id>`. */
export interface ItemChangedPayload {
  item_id: number;
  change: 'created' | 'updated' | 'deleted' | 'archived' | 'transferred' | 'restored';
}

/**
 * The user's access to an item changed (added, removed, authority or catalogs changed): refresh
 * the item list and the item's flags. Pushed to `user:<uid>`.
 */
export interface AccessChangedPayload {
  item_id: number;
  change: 'added' | 'removed' | 'updated';
}

/**
 * The server removed this socket from a room because the user may no longer read it (membership
 * removed, item deleted or made private, page moved out of the user's catalogs, page deleted).
 * Exactly one of `item_id` / `page_id` is set.
 */
export interface UnwatchedPayload {
  item_id?: number;
  page_id?: number;
  error_code: number;
}

export type PresenceMode = 'viewing' | 'editing';

export interface PresenceUser {
  uid: number;
  username: string;
  /** `editing` when any of the user's sockets on the page is editing. */
  mode: PresenceMode;
  /**
   * An AI agent writing the page through an MCP token (it writes as `uid`, the token's owner;
   * `username` is its label, "Claude via token 'docs-bot'"), listed while it writes.
   */
  agent?: { token_id: number };
}

/**
 * Who is on a page right now (each user once), across all Quire processes. Pushed to `page:<id>`
 * whenever someone joins, leaves or switches mode; the full list each time, so a missed push is
 * repaired by the next one.
 */
export interface PresencePayload {
  page_id: number;
  users: PresenceUser[];
}

/**
 * How far the user's running file import (`import/auto`) has got: `done` of `total` pages
 * written. `import_id` is the one the client sent with the upload. Pushed to the importing user.
 */
export interface ImportProgressPayload {
  import_id: string;
  done: number;
  total: number;
}

/**
 * A test flow run's progress (`flow/run`): a finished step (`step`), or the end (`finished`).
 * Pushed to `item:<id>`, so everyone watching the item follows the run.
 */
export interface FlowProgressPayload {
  item_id: number;
  flow_id: number;
  run_id: string;
  by_uid: number;
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
}

/**
 * Sent to every socket of a process that is stopping (SIGTERM: a rolling restart, a scale-down),
 * just before its connection is closed: reconnect, and the load balancer picks a process that is
 * still up. Nothing is lost by waiting for the reconnect: watches are re-sent on connect.
 */
export interface ServerShutdownPayload {
  reconnect: true;
}

export interface ServerToClientEvents {
  unread: (payload: UnreadPayload) => void;
  notice: (payload: NoticePayload) => void;
  lock: (payload: LockPayload) => void;
  'page:saved': (payload: PageSavedPayload) => void;
  'page:deleted': (payload: PageDeletedPayload) => void;
  'sheet:changed': (payload: SheetChangedPayload) => void;
  'kanban:changed': (payload: KanbanChangedPayload) => void;
  'page:comments': (payload: PageCommentsPayload) => void;
  'page:suggestions': (payload: PageSuggestionsPayload) => void;
  'menu:changed': (payload: MenuChangedPayload) => void;
  'item:changed': (payload: ItemChangedPayload) => void;
  'access:changed': (payload: AccessChangedPayload) => void;
  unwatched: (payload: UnwatchedPayload) => void;
  presence: (payload: PresencePayload) => void;
  'import:progress': (payload: ImportProgressPayload) => void;
  'flow:progress': (payload: FlowProgressPayload) => void;
  server_shutdown: (payload: ServerShutdownPayload) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<N extends ServerEventName> = Parameters<ServerToClientEvents[N]>[0];

/** One union of every server push, for a single client-side reducer. */
export type ServerEvent = {
  [N in ServerEventName]: { type: N; payload: ServerEventPayload<N> };
}[ServerEventName];

// ------------------------------------------------------------------------------------------------
// Client → server

/**
 * What to watch: an item (menu and item events) or a page (lock, save, presence). `mode` on a page
 * makes the user visible in its presence list; without it the socket only listens.
 * `item_password` is the item's visit password the client remembered, for private items the user
 * is no member of.
 */
export type WatchTarget =
  | { item_id: number; item_password?: string }
  | { page_id: number; mode?: PresenceMode; item_password?: string };

export type UnwatchTarget = { item_id: number } | { page_id: number };

/** Set or clear (`null`) this socket's presence mode on a page it watches. */
export interface PresenceUpdate {
  page_id: number;
  mode: PresenceMode | null;
}

/** Refusal codes are ShowDoc's: 10101 not found / not visible, 10102 not logged in, 10303 no access. */
export type Ack = { ok: true } | { error_code: number; error_message?: string };

/** A page watch is answered with the page's current lock and presence, so nothing is fetched twice. */
export type WatchAck =
  | { ok: true; lock?: LockPayload; presence?: PresenceUser[] }
  | { error_code: number; error_message?: string };

export interface ClientToServerEvents {
  watch: (target: WatchTarget, ack: (reply: WatchAck) => void) => void;
  unwatch: (target: UnwatchTarget, ack: (reply: Ack) => void) => void;
  presence: (update: PresenceUpdate, ack: (reply: Ack) => void) => void;
}

// ------------------------------------------------------------------------------------------------
// Server side only (kept here so the shapes stay next to the events that use them)

/** What each socket carries (visible to other processes through `fetchSockets()`): keep it small. */
export interface SocketData {
  uid: number;
  username: string;
  groupid: number;
  /** Page id → presence mode, for the pages where this socket is visible. */
  present: Record<number, PresenceMode>;
  /** Page id → its item id, for every watched page (access re-checks by item). */
  pages: Record<number, number>;
}

/** Socket.IO's inter-server events (none: cross-process work goes through the adapter). */
export type InterServerEvents = Record<string, never>;

/** Room names, in one place. */
export const rooms = {
  user: (uid: number) => `user:${uid}`,
  item: (itemId: number) => `item:${itemId}`,
  page: (pageId: number) => `page:${pageId}`,
  /** Sockets visible in a page's presence list. */
  presence: (pageId: number) => `presence:${pageId}`,
  /** Every socket watching the item or any of its pages (access re-checks). */
  watchers: (itemId: number) => `watchers:${itemId}`,
  /** Watchers whose access to the item is limited to some catalogs (re-checked on menu moves). */
  restricted: (itemId: number) => `restricted:${itemId}`,
  /**
   * Watchers who read the item as visitors (public item or visit password, no membership):
   * re-checked when the item's settings change (it may have become private).
   */
  visitors: (itemId: number) => `visitors:${itemId}`,
} as const;
