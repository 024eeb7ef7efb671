/**
 * The local draft of spec 001 §4: the editor's text is kept in this browser every 30 s, offered
 * back when the editor opens again with different text, and removed once answered or saved. The
 * live draft on the server (the Yjs document) covers other devices; this one covers a page that
 * was never saved and a browser that lost its connection.
 */
export const DRAFT_INTERVAL_MS = 30_000;
/** The restore question is asked only about content over this length (spec §9). */
export const DRAFT_MIN_CHARS = 10;

export interface LocalDraft {
  content: string;
  title: string;
  /** Unix ms. */
  at: number;
}

export const draftKey = (itemId: number, pageId: number) =>
  `quire.draft.${itemId}.${pageId || 'new'}`;

export function readDraft(key: string): LocalDraft | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<LocalDraft> | null;
    if (!parsed || typeof parsed.content !== 'string') return null;
    return { content: parsed.content, title: String(parsed.title ?? ''), at: Number(parsed.at) };
  } catch {
    return null;
  }
}

export function writeDraft(key: string, draft: LocalDraft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // storage full or disabled: the live draft on the server still has the text
  }
}

export function removeDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing stored
  }
}

/**
 * Whether to offer `draft` back over `current`: it differs, and the text in question is over 10
 * characters — the current content for a saved page (spec §4), the draft itself for a page that
 * was never saved (there is no current content to weigh: a lost new page must come back).
 */
export function shouldOfferDraft(draft: LocalDraft | null, current: string, isNew: boolean) {
  if (!draft || draft.content === current) return false;
  return (isNew ? draft.content : current).length > DRAFT_MIN_CHARS;
}
