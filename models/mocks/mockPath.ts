/**
 * Mock paths (reference pages §7): `/users/1` is matched exactly; `~^/users/\d+$` (a leading `~`)
 * is a regular expression. Regex paths are matched against a public, unauthenticated URL, so a
 * pattern that can backtrack catastrophically would let anyone stall the server: such patterns
 * are refused when saved and skipped when served. The checks are ShowDoc's own heuristics (at
 * most 500 characters, must compile, no nested quantified groups, no duplicate alternatives in a
 * quantified group, fewer than 4 `{n,m}` quantifiers) plus safe-regex2's star-height test; and
 * the request path is capped (MAX_REQUEST_PATH) so even a linear pattern has a bounded input.
 *
 * A regex must match the whole path (it is wrapped in `^(?:…)$`): users write `/users/\d+`
 * meaning "that path", not "any path containing it".
 */
import safeRegex from 'safe-regex2';
import { failure } from '../platform';

export const REGEX_MARK = '~';
export const MAX_REGEX_LENGTH = 500;
/** Longer request paths are answered 400 before any matching. */
export const MAX_REQUEST_PATH = 2048;
const MAX_BRACE_QUANTIFIERS = 3;

export function isRegexPath(path: string): boolean {
  return path.startsWith(REGEX_MARK);
}

/** A quantifier starting at `i` (`*`, `+`, `{n}`, `{n,}`, `{n,m}`), with its length; `?` is not repetition. */
function quantifierAt(source: string, i: number): { length: number; brace: boolean } | null {
  const ch = source[i];
  if (ch === '*' || ch === '+') return { length: 1, brace: false };
  if (ch === '{') {
    const m = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
    if (m) return { length: m[0].length, brace: true };
  }
  return null;
}

interface Group {
  start: number;
  hasQuantifier: boolean;
}

/** ShowDoc's heuristics; returns the reason the pattern is unsafe, or null. */
function heuristicProblem(source: string): string | null {
  const stack: Group[] = [];
  let braces = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      continue;
    }
    if (ch === '(') {
      stack.push({ start: i + 1, hasQuantifier: false });
      continue;
    }
    const quantifier = quantifierAt(source, i);
    if (quantifier) {
      if (quantifier.brace) braces++;
      if (stack.length) stack[stack.length - 1].hasQuantifier = true;
      i += quantifier.length - 1;
      continue;
    }
    if (ch === ')') {
      const group = stack.pop();
      if (!group) continue; // unbalanced: compiling reports it
      const after = quantifierAt(source, i + 1);
      if (after) {
        if (group.hasQuantifier) return 'nested quantified groups are not allowed';
        const body = source.slice(group.start, i).replace(/^\?(?::|=|!|<=|<!|<[A-Za-z]\w*>)/, '');
        const alternatives = topLevelAlternatives(body);
        if (new Set(alternatives).size !== alternatives.length)
          return 'duplicate alternatives in a repeated group are not allowed';
      }
      // A quantifier inside makes the enclosing group "quantified inside" as well.
      if (stack.length && (group.hasQuantifier || after))
        stack[stack.length - 1].hasQuantifier = true;
    }
  }
  if (braces > MAX_BRACE_QUANTIFIERS) return 'too many {n,m} quantifiers';
  return null;
}

/** `a|b|(c|d)` → ['a', 'b', '(c|d)']. */
function topLevelAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') {
      current += ch + (body[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** The compiled whole-path matcher of a regex path (without its `~`), or why it is refused. */
export function compileMockRegex(source: string): { regex: RegExp } | { problem: string } {
  if (source.length > MAX_REGEX_LENGTH)
    return { problem: `The regular expression is longer than ${MAX_REGEX_LENGTH} characters` };
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${source})$`);
  } catch {
    return { problem: 'The regular expression is not valid' };
  }
  const problem = heuristicProblem(source);
  if (problem) return { problem: `Unsafe regular expression: ${problem}` };
  if (!safeRegex(regex)) return { problem: 'Unsafe regular expression: it may backtrack badly' };
  return { regex };
}

/** mock/add's `path`: `/` when empty, `/` prefixed to plain paths, regex paths checked. */
export function normalizeMockPath(raw: string): string {
  const path = raw.trim();
  if (isRegexPath(path)) {
    const compiled = compileMockRegex(path.slice(REGEX_MARK.length));
    if ('problem' in compiled) throw failure(compiled.problem);
    return path;
  }
  if (path.length > MAX_REQUEST_PATH) throw failure('The path is too long');
  return path.startsWith('/') ? path : `/${path}`;
}
