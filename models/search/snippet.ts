/**
 * What search shows of a page: its prose apart from its code blocks (for "skip code blocks" and
 * for weighing code below prose), and a snippet around the best match with the ranges to highlight.
 *
 * The snippet is plain text with highlight ranges (not HTML): the reader renders the ranges as
 * <mark> elements, so page text can never inject markup; `markSnippet` builds escaped HTML for
 * clients that want a string.
 */
import type { ParsedQuery } from './query';

/** A fence line: up to three spaces, then three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export interface SplitText {
  /** The text outside fenced code blocks (the fence lines dropped with their blocks). */
  prose: string;
  /** The text of the fenced code blocks. */
  code: string;
}

/** Markdown split into prose and fenced code (an unclosed fence runs to the end, as CommonMark). */
export function splitCode(markdown: string): SplitText {
  if (!markdown.includes('```') && !markdown.includes('~~~')) return { prose: markdown, code: '' };
  const prose: string[] = [];
  const code: string[] = [];
  let fence = '';
  for (const line of markdown.split('\n')) {
    const opener = FENCE.exec(line);
    if (!fence) {
      if (opener) fence = opener[1];
      else prose.push(line);
      continue;
    }
    if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) {
      fence = '';
      prose.push('');
      continue;
    }
    code.push(line);
  }
  return { prose: prose.join('\n'), code: code.join('\n') };
}

/** [start, end) ranges in UTF-16 code units. */
export type Ranges = Array<[number, number]>;

export interface Snippet {
  text: string;
  highlights: Ranges;
}

/** Characters of text shown around the best match. */
export const SNIPPET_LENGTH = 180;
/** Of which before the first match in the window. */
const LEAD = 50;
/** Matches looked at per part (enough to find the densest window). */
const MAX_MATCHES = 200;

/** Where the query's parts (and its phrase, when given) match `text`, merged and sorted. */
export function highlightRanges(query: ParsedQuery, text: string): Ranges {
  const ranges: Ranges = [];
  for (const pattern of query.globals) {
    let n = 0;
    for (const match of text.matchAll(pattern)) {
      if (!match[0]) break;
      ranges.push([match.index, match.index + match[0].length]);
      if (++n >= MAX_MATCHES) break;
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Ranges = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The first hit of any part in the text (-1: none) and its length (ShowDoc's snippet start). */
export function firstHit(query: ParsedQuery, text: string): { at: number; length: number } {
  let best = { at: -1, length: 0 };
  for (const pattern of query.patterns) {
    const match = pattern.exec(text);
    if (match && (best.at < 0 || match.index < best.at))
      best = { at: match.index, length: match[0].length };
  }
  return best;
}

/** Moves an index off the low half of a surrogate pair so a cut never splits a character. */
function boundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/**
 * The start of the window holding the most different parts of the query (then the most matches;
 * a match of the whole phrase counts as every part), or -1 when nothing matches.
 */
function bestWindow(query: ParsedQuery, text: string): number {
  // One word: its first match (a window can hold nothing more of the query).
  if (query.globals.length === 1 && !query.phrasePattern) {
    const match = query.patterns[0].exec(text);
    return match ? match.index : -1;
  }
  const hits: Array<{ at: number; part: number }> = [];
  query.globals.forEach((pattern, part) => {
    let n = 0;
    for (const match of text.matchAll(pattern)) {
      if (!match[0]) break;
      hits.push({ at: match.index, part });
      if (++n >= MAX_MATCHES) break;
    }
  });
  if (query.phrasePattern) {
    const phrase = new RegExp(query.phrasePattern.source, 'gi');
    for (const match of text.matchAll(phrase)) {
      hits.push({ at: match.index, part: -1 });
      if (hits.length > MAX_MATCHES * 20) break;
    }
  }
  if (!hits.length) return -1;
  hits.sort((a, b) => a.at - b.at);
  const span = SNIPPET_LENGTH - LEAD;
  let best = hits[0].at;
  let bestKey = -1;
  for (let i = 0; i < hits.length; i++) {
    const parts = new Set<number>();
    let count = 0;
    for (let j = i; j < hits.length && hits[j].at < hits[i].at + span; j++) {
      if (hits[j].part === -1) query.patterns.forEach((_, p) => parts.add(p));
      else parts.add(hits[j].part);
      count++;
    }
    const key = parts.size * 10_000 + Math.min(count, 9_999);
    if (key > bestKey) {
      bestKey = key;
      best = hits[i].at;
    }
  }
  return best;
}

/**
 * About SNIPPET_LENGTH characters of `text` around its best match (its start when nothing
 * matches), blanks collapsed, "…" where cut, with the matches' ranges inside the snippet.
 */
export function makeSnippet(query: ParsedQuery, text: string): Snippet {
  const at = bestWindow(query, text);
  const from = at < 0 ? 0 : boundary(text, Math.max(0, at - LEAD));
  const to = boundary(text, Math.min(text.length, from + SNIPPET_LENGTH));
  let body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  if (from > 0) body = `…${body}`;
  if (to < text.length) body = `${body}…`;
  return { text: body, highlights: highlightRanges(query, body) };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** The snippet as HTML: the text escaped, each highlight wrapped in <mark>. */
export function markSnippet(snippet: Snippet): string {
  let out = '';
  let at = 0;
  for (const [start, end] of snippet.highlights) {
    out += `${escapeHtml(snippet.text.slice(at, start))}<mark>${escapeHtml(snippet.text.slice(start, end))}</mark>`;
    at = end;
  }
  return out + escapeHtml(snippet.text.slice(at));
}
