/**
 * The contract between the collaborative page editor (web/, CodeMirror 6 + y-codemirror.next +
 * @hocuspocus/provider 3) and the Hocuspocus server at /collab. Constants and types only: the web
 * may import this file without pulling in any server code.
 *
 * Connecting: `new HocuspocusProvider({ url: <ws(s)://host>/collab, name: pageDocumentName(id),
 * token: user_token })`. Editors get a read-write document, readers a read-only one
 * (`onAuthenticated({ scope })` says which), anybody else `onAuthenticationFailed({ reason })` with
 * one of CollabRefusal.
 */

/** The WebSocket path of the Hocuspocus server (Socket.IO keeps `/socket.io`). */
export const COLLAB_PATH = '/collab';

/** The Y.Text holding a page's Markdown: `doc.getText(PAGE_TEXT)`, bound with yCollab. */
export const PAGE_TEXT = 'content';

const DOCUMENT_NAME = /^page\.([1-9]\d{0,14})$/;

/** One Yjs document per page. */
export function pageDocumentName(pageId: number): string {
  return `page.${pageId}`;
}

/** The page id of a document name, or null when the name is not one of ours. */
export function pageIdOfDocument(name: string): number | null {
  const match = DOCUMENT_NAME.exec(name);
  return match ? Number(match[1]) : null;
}

/**
 * What a document holds: a Markdown page's text (`page.<id>`), or a whiteboard item's canvas
 * (`whiteboard.<id>`, realtime/whiteboardProtocol.ts). Both are a page, checked and saved as one.
 */
export type CollabDocumentKind = 'page' | 'whiteboard';

const WHITEBOARD_NAME = /^whiteboard\.([1-9]\d{0,14})$/;

/** One Yjs document per whiteboard page. */
export function whiteboardDocumentName(pageId: number): string {
  return `whiteboard.${pageId}`;
}

/** The kind and page of a document name, or null when the name is not one of ours. */
export function collabDocumentOf(
  name: string,
): { kind: CollabDocumentKind; pageId: number } | null {
  const page = pageIdOfDocument(name);
  if (page) return { kind: 'page', pageId: page };
  const match = WHITEBOARD_NAME.exec(name);
  return match ? { kind: 'whiteboard', pageId: Number(match[1]) } : null;
}

/** Why the server refused a document (the provider's `authenticationFailed` reason). */
export type CollabRefusal =
  /** No token, an unknown one or an expired one: log in again. */
  | 'unauthorized'
  /** The page does not exist or the user may not read it. */
  | 'forbidden'
  /**
   * The document name is not `page.<id>` nor `whiteboard.<id>`, or not the kind of the page's item
   * (a whiteboard item's page opens as `whiteboard.<id>` only, every other page as `page.<id>`).
   */
  | 'bad-document';

/**
 * Why the server closed a document connection that was open (the provider's `close` event).
 * A client that gets `awareness-identity` sent awareness in someone else's name.
 */
export type CollabCloseReason =
  | 'access-revoked'
  | 'page-deleted'
  | 'awareness-identity'
  /** The client sent a message kind only the server may send (stateless broadcasts). */
  | 'refused-message'
  /** The user logged out, changed the password, or the token expired: sign in again. */
  | 'session-ended';

/** Who the person behind an awareness state is. `id` and `name` must be the connection's own. */
export interface CollabUser {
  /** The account's uid. */
  id: number;
  /** The account's username, or its display name when it has one (what `hello` sends). */
  name: string;
  /** Cursor colour (CSS), and its light variant for selections (y-codemirror.next's fields). */
  color?: string;
  colorLight?: string;
}

export type CollabMode = 'viewing' | 'editing';

/**
 * An awareness state (`provider.setAwarenessField(...)`). The server refuses a state whose `user`
 * is not the connection's own user (the connection is then closed with `awareness-identity`), and
 * states over MAX_AWARENESS_BYTES. `cursor` is y-codemirror.next's field.
 */
export interface CollabAwarenessState {
  user?: CollabUser;
  mode?: CollabMode;
  cursor?: unknown;
  /**
   * An AI agent writing the page through an MCP token: set by the server only (a client state
   * carrying it is refused), while the agent writes and AGENT_PRESENCE_MS after its last write.
   */
  agent?: CollabAgent;
}

/** An AI agent in a page's presence ("Claude via token 'docs-bot'"). */
export interface CollabAgent {
  label: string;
  tokenId: number;
  /** Whose token it is: the agent writes as this account. */
  uid: number;
  color: string;
}

/** How long an agent stays in a page's presence after its last write. */
export const AGENT_PRESENCE_MS = 10_000;

/** Largest accepted awareness state, as JSON. */
export const MAX_AWARENESS_BYTES = 4096;

/** The page lock as the editor needs it (null = nobody holds it). */
export interface CollabLock {
  uid: number;
  username: string;
  /** Unix seconds. */
  lockTo: number;
}

/**
 * What a client may ask of the server (`provider.sendStateless(JSON.stringify(message))`).
 *
 * `save`: store the document's text as the page's new version — the text the server's copy holds
 * when the message arrives, which includes every edit this connection sent before it. The server
 * answers `saved` or `save-failed` with the same `requestId`. Only for an existing page, from a
 * writable connection; new pages are created over REST `page/save`.
 */
export interface CollabSaveRequest {
  type: 'save';
  /** Chosen by the client (at most 64 characters), echoed in the answer. */
  requestId: string;
  title: string;
  catId: number;
  /** The page's "article ID" ('' for none). */
  customId: string;
  /** "Save and notify": the remark sent to the page's subscribers. */
  notify?: string;
}

/**
 * `keep`: this client keeps a copy of the document to edit offline (issue #41). A page nobody
 * edited yet has no stored draft — its document is made from the saved content at each open — so
 * the server stores it now: edits made on the kept copy then share its history and merge through
 * Yjs after a later save of the page. Answered `kept` with the same `requestId`.
 */
export interface CollabKeepRequest {
  type: 'keep';
  requestId: string;
}

export type CollabClientMessage = CollabSaveRequest | CollabKeepRequest;

/**
 * What the server tells one connection (HocuspocusProvider `onStateless`, JSON in `payload`).
 * Clients' own stateless broadcasts are refused, so these always come from the server.
 */
export type CollabServerMessage =
  /** Sent once the document is open: who you are (use it in your awareness `user`) and your access. */
  | {
      type: 'hello';
      user: { id: number; name: string };
      readOnly: boolean;
      coEdit: boolean;
      lock: CollabLock | null;
    }
  /**
   * Your write access changed: the page's lock moved (simultaneous editing off: only the lock
   * holder writes, the others watch live), the item's "simultaneous editing" setting changed, or
   * your role did.
   */
  | { type: 'access'; readOnly: boolean; coEdit: boolean; lock: CollabLock | null }
  /** Your `save` was stored: `pageId` is the page, `content` exactly the text stored. */
  | { type: 'saved'; requestId: string; pageId: number; content: string }
  /** Your `save` was refused: the error code and message REST `page/save` would answer. */
  | { type: 'save-failed'; requestId: string; errorCode: number; message: string }
  /** Your `keep` is done: the document's state is stored as the page's draft. */
  | { type: 'kept'; requestId: string };
