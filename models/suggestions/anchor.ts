/**
 * Where a suggestion sits in a page's text. A suggestion remembers the text it replaces, a little
 * of the text on either side and the offset it was made at; it is found again by that context,
 * nearest the offset, so edits elsewhere in the page (or unsaved typing before it) do not lose it.
 * The editor finds suggestions the same way in its live text (web/features/suggest/locate.ts):
 * both sides must agree on this rule. Imports nothing.
 */

/** Characters of context kept on each side. */
export const ANCHOR_CONTEXT = 32;

export interface Anchor {
  /** Offset of `old_text` in the text it was made against. */
  from: number;
  /** The text the suggestion replaces ('' for a pure insertion). */
  old_text: string;
  before: string;
  after: string;
}

/** The anchor of the range [from, to) of `text`. */
export function anchorAt(text: string, from: number, to: number): Anchor {
  return {
    from,
    old_text: text.slice(from, to),
    before: text.slice(Math.max(0, from - ANCHOR_CONTEXT), from),
    after: text.slice(to, to + ANCHOR_CONTEXT),
  };
}

/** Every index where `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/**
 * The offset of the anchor's `old_text` in `text`, or -1 when the text around it is gone. Tries
 * the whole context first, then one side of it, then the replaced text alone; among several
 * matches the one nearest the remembered offset wins.
 */
export function locateAnchor(text: string, anchor: Anchor): number {
  const { before, old_text: old, after } = anchor;
  const tries: Array<[string, number]> = [[before + old + after, before.length]];
  if (before) tries.push([before + old, before.length]);
  if (after) tries.push([old + after, 0]);
  if (old) tries.push([old, 0]);
  for (const [needle, lead] of tries) {
    if (!needle) return anchor.from <= text.length ? anchor.from : -1;
    const starts = occurrences(text, needle).map((i) => i + lead);
    if (starts.length)
      return starts.reduce((best, at) =>
        Math.abs(at - anchor.from) < Math.abs(best - anchor.from) ? at : best,
      );
  }
  return -1;
}
