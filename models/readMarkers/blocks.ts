/**
 * Which blocks of a page's Markdown changed between two versions: blocks are what a reader sees
 * as one unit — paragraphs, headings, list items' paragraphs, table rows, code blocks, rules and
 * HTML blocks — found by markdown-it (the parser the reader renders with, so a block's first
 * source line is the `data-md-line` the rendered element carries). The two block sequences are
 * compared with fast-diff, each distinct block standing for one character (the "lines to chars"
 * trick), so the longest common subsequence is the library's, not ours.
 */
import diff from 'fast-diff';
import type MarkdownIt from 'markdown-it';

const LEAVES = new Set([
  'paragraph_open',
  'heading_open',
  'tr_open',
  'fence',
  'code_block',
  'hr',
  'html_block',
]);

export interface Block {
  /** First source line (0-based), as markdown-it's `map` gives it. */
  line: number;
  text: string;
}

export interface ChangedBlock {
  line: number;
  /** `added`: new between unchanged blocks; `changed`: replaces blocks of the older version. */
  kind: 'added' | 'changed';
}

export interface BlockChanges {
  blocks: ChangedBlock[];
  /** Blocks of the older version that are gone without a replacement. */
  removed: number;
}

/** Past this many blocks (both versions) every block of the newer one counts as changed. */
const MAX_BLOCKS = 50_000;

let parser: Promise<MarkdownIt> | undefined;

/** markdown-it loads on the first comparison, not when a process starts. */
function blockParser(): Promise<MarkdownIt> {
  parser ??= import('markdown-it').then(
    ({ default: Parser }) => new Parser({ html: true, breaks: true, linkify: true }),
  );
  return parser;
}

export async function splitBlocks(markdown: string): Promise<Block[]> {
  const lines = markdown.split(/\r\n|\r|\n/);
  const out: Block[] = [];
  for (const token of (await blockParser()).parse(markdown, {})) {
    if (!LEAVES.has(token.type) || !token.map) continue;
    const [start, end] = token.map;
    out.push({ line: start, text: lines.slice(start, end).join('\n').trim() });
  }
  return out;
}

/** The blocks of `current` that are new or different compared with `previous`. */
export async function changedBlocks(previous: string, current: string): Promise<BlockChanges> {
  const [before, after] = await Promise.all([splitBlocks(previous), splitBlocks(current)]);
  const codes = new Map<string, string>();
  // One BMP character per distinct block text (surrogates skipped: fast-diff counts UTF-16 units).
  const encode = (blocks: Block[]) =>
    blocks
      .map((b) => {
        let code = codes.get(b.text);
        if (code === undefined) {
          const n = 0x100 + codes.size;
          code = String.fromCharCode(n >= 0xd800 ? n + 0x800 : n);
          codes.set(b.text, code);
        }
        return code;
      })
      .join('');
  if (before.length + after.length > MAX_BLOCKS)
    return { blocks: after.map((b) => ({ line: b.line, kind: 'changed' })), removed: 0 };
  const parts = diff(encode(before), encode(after));
  const blocks: ChangedBlock[] = [];
  let removed = 0;
  let index = 0;
  for (let i = 0; i < parts.length;) {
    if (parts[i][0] === diff.EQUAL) {
      index += parts[i][1].length;
      i++;
      continue;
    }
    // A run of deletions and insertions: insertions replacing something are changes.
    let deleted = 0;
    let inserted = 0;
    for (; i < parts.length && parts[i][0] !== diff.EQUAL; i++)
      if (parts[i][0] === diff.DELETE) deleted += parts[i][1].length;
      else inserted += parts[i][1].length;
    const kind = deleted > 0 ? 'changed' : 'added';
    for (let k = 0; k < inserted; k++) blocks.push({ line: after[index++].line, kind });
    removed += Math.max(0, deleted - inserted);
  }
  return { blocks, removed };
}
