/**
 * Finding a suggestion in the text the browser holds: by the text it replaces and a little
 * context on either side, nearest the offset it was made at. The server finds it by the same rule
 * when it is accepted (models/suggestions/anchor.ts); the two must agree, so change both together.
 */
import type { Suggestion } from './api';

/** Characters of context sent on each side of a proposed change. */
export const CONTEXT = 32;

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** The offset of the suggestion's old text in `text`, or -1 when its context is gone. */
export function locate(
  text: string,
  s: Pick<Suggestion, 'from' | 'old_text' | 'before' | 'after'>,
): number {
  const { before, old_text: old, after } = s;
  const tries: Array<[string, number]> = [[before + old + after, before.length]];
  if (before) tries.push([before + old, before.length]);
  if (after) tries.push([old + after, 0]);
  if (old) tries.push([old, 0]);
  for (const [needle, lead] of tries) {
    if (!needle) return s.from <= text.length ? s.from : -1;
    const starts = occurrences(text, needle).map((i) => i + lead);
    if (starts.length)
      return starts.reduce((best, at) =>
        Math.abs(at - s.from) < Math.abs(best - s.from) ? at : best,
      );
  }
  return -1;
}

/** The change [from, to) → insert of `text`, with its context, as suggestion/propose takes it. */
export function changeOf(text: string, from: number, to: number, insert: string) {
  return {
    from,
    old_text: text.slice(from, to),
    new_text: insert,
    before: text.slice(Math.max(0, from - CONTEXT), from),
    after: text.slice(to, to + CONTEXT),
  };
}
