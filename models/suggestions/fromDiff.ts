/**
 * An agent's new text as suggestions: the hunks that turn the saved text into it (fast-diff,
 * the differ the live documents use), each anchored in the saved text. Hunks a few characters
 * apart become one, so a reworded sentence reads as one suggestion, not a scatter of letters.
 */
import diff from 'fast-diff';
import { anchorAt } from './anchor';
import type { ProposedChange } from './suggestions';

/** Unchanged runs shorter than this between two hunks join them. */
const JOIN_GAP = 4;

export function suggestionsFromDiff(current: string, next: string): ProposedChange[] {
  const hunks: Array<{ from: number; to: number; insert: string }> = [];
  let at = 0;
  for (const [op, chunk] of diff(current, next)) {
    if (op === diff.EQUAL) {
      at += chunk.length;
      continue;
    }
    const last = hunks[hunks.length - 1];
    const hunk =
      last && at - last.to < JOIN_GAP
        ? last
        : (hunks[hunks.length] = { from: at, to: at, insert: '' });
    // Joining across a short unchanged run: that run is replaced by itself plus the change.
    if (hunk.to < at) {
      hunk.insert += current.slice(hunk.to, at);
      hunk.to = at;
    }
    if (op === diff.DELETE) {
      at += chunk.length;
      hunk.to = at;
    } else hunk.insert += chunk;
  }
  return hunks.map(({ from, to, insert }) => ({
    ...anchorAt(current, from, to),
    new_text: insert,
  }));
}
