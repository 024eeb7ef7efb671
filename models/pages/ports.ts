/**
 * What other layers plug into pages at start (server/ composes them): the live documents
 * (realtime/collab implements `LiveDocPort`), "save and notify" (models/notices) and the attachment
 * counter (models/files) — modules that import pages and so cannot be imported from here — and
 * the catalog path of a page, which models/catalogs fills as it loads. Each seam is an interface
 * pages calls; nothing here knows who fills it.
 */
import type { DomainEvents } from '../platform';
import { definePort, perContext } from '../platform';
import type { PageDoc } from './schemas/page';

/** An AI agent saving through an MCP token ("Claude via token 'docs-bot'"). */
export type SaveAgent = NonNullable<DomainEvents['page.saved']['agent']>;

/** A saved version, as a live document takes it. */
export interface LiveDocSave {
  itemId: number;
  pageId: number;
  title: string;
  content: string;
  byUid: number;
  /** The stored text this save replaced: what the agent's change is relative to. */
  previous: string;
  /** Only the change from `previous` is replayed on the live text (an accepted suggestion). */
  rebase?: boolean;
  /** Set for an AI agent's save (MCP): shown in the document's presence while it writes. */
  agent?: SaveAgent;
}

/**
 * The page's open collaborative document, as a save reaches it. realtime/collab registers the one
 * for server-side saves (`registerLiveDocs`); the editor's own save brings the document it comes
 * from (`savePage` option `liveDoc`), which holds the text already.
 */
export interface LiveDocPort {
  /**
   * Applies a saved version to the page's open collaborative document, if there is one, so its
   * editors see it and the document does not later persist stale text over it. Resolves true
   * when the text is in a document open in this process (false: savePage brings the stored draft
   * up to date itself). Must not throw.
   */
  applySave(save: LiveDocSave): Promise<boolean>;
}

/** "Save and notify", as the notice centre (models/notices) takes it from a save. */
export interface PageNotifier {
  /**
   * Called when an update with notify has passed its checks, with the page as the save will
   * leave it: starts finding who is told (none of it depends on the write). Must not throw.
   */
  prepare(notice: {
    page: Pick<PageDoc, 'item_id' | 'page_id' | 'cat_id' | 'is_draft' | 'author_uid'>;
    byUid: number;
    fromName: string;
    text: string;
  }): PreparedNotice;
}

export interface PreparedNotice {
  /** Once the page is written: writes the reminders, then tells their readers. Never throws. */
  send(): Promise<void>;
}

const plugs = perContext(
  (): {
    liveDocs: LiveDocPort | null;
    attachmentCounter: (pageId: number) => Promise<number>;
    notifier: PageNotifier | null;
  } => ({ liveDocs: null, attachmentCounter: async () => 0, notifier: null }),
);

/** Registers the live documents of this process (null: none, e.g. the API role). */
export function registerLiveDocs(port: LiveDocPort | null): void {
  plugs().liveDocs = port;
}

/** The registered live documents, or null. */
export function liveDocs(): LiveDocPort | null {
  return plugs().liveDocs;
}

/**
 * Plugs the "save and notify" notifier in (without one, saves remind nobody). Returns the
 * function that unplugs it, which puts back the one it replaced.
 */
export function connectPageNotifier(notifier: PageNotifier): () => void {
  const seam = plugs();
  const replaced = seam.notifier;
  seam.notifier = notifier;
  return () => {
    if (seam.notifier === notifier) seam.notifier = replaced;
  };
}

export function pageNotifier(): PageNotifier | null {
  return plugs().notifier;
}

export function setAttachmentCounter(counter: (pageId: number) => Promise<number>): void {
  plugs().attachmentCounter = counter;
}

export function countAttachments(pageId: number): Promise<number> {
  return plugs().attachmentCounter(pageId);
}

/** The catalogs a page sits in, as the catalogs domain (above pages) answers them. */
export interface PageCatalogs {
  /** The catalog `catId` of the item and those above it, top-level first ([] for the root). */
  chainOf(itemId: number, catId: number): Promise<Array<{ cat_id: number; cat_name: string }>>;
}

/** Filled by models/catalogs (its index.ts) as it loads; see models/platform/port.ts. */
export const pageCatalogs = definePort<PageCatalogs>('pages: catalog path', 'catalogs');
