/**
 * The change digest of a delivery: a line diff of a page's text against its previous version,
 * counted and excerpted. fast-diff compares characters, so each distinct line becomes one
 * private-use character first (diff-match-patch's line mode): the diff then runs over lines.
 */
import diff from 'fast-diff';

/** Lines quoted in a digest: enough for a chat message, bounded for huge rewrites. */
export const MAX_DIGEST_LINES = 40;
/** Longest quoted line. */
const MAX_LINE = 200;
/** Distinct lines the private-use block can stand for; past it, counts come from a set diff. */
const MAX_DISTINCT = 0xf8ff - 0xe000;

export interface LineDiff {
  added: number;
  removed: number;
  /** `+ text` / `- text`, in document order, at most MAX_DIGEST_LINES. */
  lines: string[];
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n?/g, '\n').split('\n');
}

export function lineDiff(before: string, after: string): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const codes = new Map<string, string>();
  const encode = (lines: string[]) =>
    lines
      .map((line) => {
        let code = codes.get(line);
        if (code === undefined) {
          code = String.fromCharCode(0xe000 + codes.size);
          codes.set(line, code);
        }
        return code;
      })
      .join('');
  const out: LineDiff = { added: 0, removed: 0, lines: [] };
  const quote = (sign: string, line: string) => {
    if (out.lines.length < MAX_DIGEST_LINES) out.lines.push(`${sign} ${line.slice(0, MAX_LINE)}`);
  };
  if (new Set([...a, ...b]).size > MAX_DISTINCT) {
    const inA = new Set(a);
    const inB = new Set(b);
    for (const line of a.filter((l) => !inB.has(l))) {
      out.removed += 1;
      quote('-', line);
    }
    for (const line of b.filter((l) => !inA.has(l))) {
      out.added += 1;
      quote('+', line);
    }
    return out;
  }
  const ea = encode(a);
  const eb = encode(b);
  const lines = [...codes.keys()];
  const decode = (chars: string) => [...chars].map((c) => lines[c.charCodeAt(0) - 0xe000]);
  for (const [op, chars] of diff(ea, eb)) {
    if (op === diff.EQUAL) continue;
    for (const line of decode(chars)) {
      if (op === diff.INSERT) {
        out.added += 1;
        quote('+', line);
      } else {
        out.removed += 1;
        quote('-', line);
      }
    }
  }
  return out;
}
