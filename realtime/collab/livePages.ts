/**
 * What the collab extensions know about each page document loaded in this process, beside the
 * Y.Doc itself: which page and item it is, which saved content it is reconciled with, what was
 * last stored, and the lock and "simultaneous editing" setting that decide who may write.
 * Created when a document loads, dropped when it unloads.
 */
import type { CollabDocumentKind, CollabLock } from '../collabProtocol';

export interface LivePage {
  pageId: number;
  itemId: number;
  /** A Markdown page's text, or a whiteboard's canvas (whiteboard.ts). */
  kind: CollabDocumentKind;
  /** contentHash of the saved page content the document is reconciled with. */
  baseHash: string;
  /**
   * That saved content itself: an agent's change (made against the saved text) is replayed on
   * the document's text relative to it, keeping what editors typed since (text.ts rebaseOnLive).
   */
  baseText: string;
  /** Signature of the last state written to the draft (or loaded from it): unchanged → no write. */
  storedSignature: string;
  /** The item's "simultaneous editing" setting (`item.co_edit`). */
  coEdit: boolean;
  /** The page's live lock, null when nobody holds it. */
  lock: CollabLock | null;
  /** Fires when `lock` runs out, to give the others their write access back. */
  lockTimer?: NodeJS.Timeout;
}

export class LivePages {
  private readonly pages = new Map<string, LivePage>();

  get(documentName: string): LivePage | undefined {
    return this.pages.get(documentName);
  }

  set(documentName: string, page: LivePage): void {
    this.drop(documentName);
    this.pages.set(documentName, page);
  }

  drop(documentName: string): void {
    const page = this.pages.get(documentName);
    if (page?.lockTimer) clearTimeout(page.lockTimer);
    this.pages.delete(documentName);
  }

  /** Document names of the loaded pages of an item. */
  ofItem(itemId: number): string[] {
    return [...this.pages].filter(([, page]) => page.itemId === itemId).map(([name]) => name);
  }

  clear(): void {
    for (const name of [...this.pages.keys()]) this.drop(name);
  }
}
