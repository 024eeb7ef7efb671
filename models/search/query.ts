/**
 * A search query as words: every bare word and every "quoted phrase" must appear in the page (in
 * any order), each matched literally and case-insensitively — inside a word too ("ndpoi" finds
 * "endpoint"), punctuation included ("f(x", "/users/{id}"), so what a single keyword found before
 * ranking existed is still found. Chinese, Japanese and Korean text has no spaces: a run of it is
 * one word, found as written (its characters in that order).
 */
/** Escapes every character a regular expression treats specially. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export interface ParsedQuery {
  /** The literal parts, each required: bare words and the text of quoted phrases. */
  parts: string[];
  /** The bare words as typed, in order, when there are two or more: found together, a boost. */
  phrase: string;
  /** One case-insensitive pattern per part (whitespace inside a phrase matches any blank run). */
  patterns: RegExp[];
  /** The same with the `g` flag, for matchAll (which copies them, so they stay stateless). */
  globals: RegExp[];
  /** `phrase` as a pattern (null without one). */
  phrasePattern: RegExp | null;
}

/** Longest list of parts looked at (the keyword is at most 100 characters anyway). */
const MAX_PARTS = 16;

/** A literal, case-insensitive pattern for `text`; blanks match any run of blanks. */
export function literalPattern(text: string, flags = 'i'): RegExp {
  const source = text
    .trim()
    .split(/\s+/)
    .map((piece) => escapeRegExp(piece))
    .join('\\s+');
  return new RegExp(source, flags);
}

export function parseQuery(raw: string): ParsedQuery {
  const parts: string[] = [];
  const bare: string[] = [];
  for (const match of raw.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (match[1] !== undefined) {
      const phrase = match[1].trim();
      if (phrase) parts.push(phrase);
      continue;
    }
    // A stray quote (an unclosed phrase) is not part of the word.
    const word = match[2].replace(/^"+|"+$/g, '') || match[2];
    parts.push(word);
    bare.push(word);
  }
  const seen = new Set<string>();
  const unique = parts
    .filter((part) => {
      const key = part.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_PARTS);
  const phrase = bare.length > 1 ? bare.join(' ') : '';
  return {
    parts: unique,
    phrase,
    patterns: unique.map((part) => literalPattern(part)),
    globals: unique.map((part) => literalPattern(part, 'gi')),
    phrasePattern: phrase ? literalPattern(phrase) : null,
  };
}

/** Whether every part of the query appears in one of the texts. */
export function matchesAll(query: ParsedQuery, texts: string[]): boolean {
  return query.patterns.every((pattern) => texts.some((text) => pattern.test(text)));
}

/** How many parts of the query appear in the text. */
export function partsFound(query: ParsedQuery, text: string): number {
  let found = 0;
  for (const pattern of query.patterns) if (pattern.test(text)) found++;
  return found;
}
