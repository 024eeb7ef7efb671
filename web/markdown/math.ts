/**
 * TeX math for markdown-it: `$…$` inline, `$$…$$` inline (editor.md, ShowDoc's old editor, wrote
 * inline math so), `$$` blocks (alone on their lines) and ```math fences. The TeX goes to the
 * registered renderer (KaTeX, loaded on demand); until it is there, a placeholder shows the
 * source and the render records that math is needed, so the component can load KaTeX and render
 * again.
 *
 * The inline rule follows Pandoc's guard against prices: the opening `$` is not followed by a
 * blank, the closing one not preceded by a blank nor followed by a digit ("$5 and $10" is text).
 */
import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateInline } from 'markdown-it';
import { mathRenderer } from './features';
import { escapeHtml } from './unescape';
import type { RenderEnv } from './env';

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;
export const MATH_FENCES = new Set(['math', 'katex', 'latex', 'tex']);

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Index of the next unescaped `$` (or `$$`) at or after `from`, or -1. */
function findClosing(src: string, from: number, double: boolean): number {
  for (let i = from; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code === BACKSLASH) {
      i++;
      continue;
    }
    if (code !== DOLLAR) continue;
    if (!double) return i;
    if (src.charCodeAt(i + 1) === DOLLAR) return i;
  }
  return -1;
}

function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== DOLLAR) return false;
  const double = src.charCodeAt(start + 1) === DOLLAR;
  const open = double ? 2 : 1;
  const first = src.charCodeAt(start + open);
  if (Number.isNaN(first) || isBlank(first)) return false;
  const close = findClosing(src, start + open, double);
  if (close < 0 || close === start + open) return false;
  if (!double) {
    if (isBlank(src.charCodeAt(close - 1))) return false;
    if (isDigit(src.charCodeAt(close + 1))) return false;
  }
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = double ? '$$' : '$';
    token.content = src.slice(start + open, close);
  }
  state.pos = close + open;
  return true;
}

function mathBlock(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
): boolean {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4) return false; // indented code
  if (pos + 2 > max || state.src.slice(pos, pos + 2) !== '$$') return false;
  pos += 2;
  let firstLine = state.src.slice(pos, max);
  let lastLine = '';
  let next = startLine;
  let found = false;
  if (firstLine.trim().endsWith('$$')) {
    // `$$ x $$` on one line
    firstLine = firstLine.trim().slice(0, -2);
    found = true;
  }
  if (silent) return true;
  while (!found) {
    next++;
    if (next >= endLine) break;
    pos = state.bMarks[next] + state.tShift[next];
    max = state.eMarks[next];
    if (pos < max && state.sCount[next] < state.blkIndent) break; // outdented: the block ends
    const line = state.src.slice(pos, max);
    if (line.trim().endsWith('$$')) {
      lastLine = line.trim().slice(0, -2);
      found = true;
    }
  }
  if (!found) return false;
  state.line = next + 1;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content =
    (firstLine.trim() ? `${firstLine}\n` : '') +
    state.getLines(startLine + 1, next, state.tShift[startLine], true) +
    (lastLine.trim() ? lastLine : '');
  token.map = [startLine, state.line];
  token.markup = '$$';
  return true;
}

/** The HTML of one formula: KaTeX's when loaded, else the escaped source in a placeholder. */
export function renderMath(tex: string, display: boolean, env: RenderEnv): string {
  env.needs.math = true;
  const render = mathRenderer();
  const tag = display ? 'div' : 'span';
  const cls = display ? 'md-math md-math-display' : 'md-math';
  if (render) return `<${tag} class="${cls}">${render(tex, display)}</${tag}>`;
  return `<${tag} class="${cls} md-math-pending">${escapeHtml(tex)}</${tag}>`;
}

export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules.math_inline = (tokens, idx, _options, env: RenderEnv) =>
    renderMath(tokens[idx].content, false, env);
  md.renderer.rules.math_block = (tokens, idx, _options, env: RenderEnv) =>
    `${renderMath(tokens[idx].content, true, env)}\n`;
}
