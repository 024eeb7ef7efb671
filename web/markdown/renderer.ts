/**
 * Markdown → safe HTML, the same everywhere content is shown (reader, share views, editor
 * preview): markdown-it with GitHub-flavoured tables, strikethrough, autolinks and task lists,
 * raw HTML allowed (ShowDoc pages use it) and then sanitised, heading anchors and a table of
 * contents, `[TOC]` markers, TeX math, highlighted code and mermaid diagrams (the last three
 * via optional renderers, see features.ts).
 *
 * Line breaks inside a paragraph are kept (`breaks`), as ShowDoc's editor rendered them.
 */
import MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import anchor from 'markdown-it-anchor';
import taskLists from 'markdown-it-task-lists';
import { newEnv, type RenderEnv, type RenderNeeds, type TocEntry } from './env';
import { highlighter } from './features';
import { MATH_FENCES, mathPlugin, renderMath } from './math';
import { safeAnchorId, sanitizeHtml } from './sanitize';
import { slugify } from './slug';
import { escapeHtml } from './unescape';

export interface RenderedDocument {
  html: string;
  toc: TocEntry[];
  needs: RenderNeeds;
}

function tokenText(tokens: Token[]): string {
  return tokens
    .filter((t) => t.type === 'text' || t.type === 'code_inline' || t.type === 'math_inline')
    .map((t) => t.content)
    .join('');
}

/** Collects the headings (after markdown-it-anchor gave them ids) into env.toc. */
function collectToc(state: StateCore): void {
  const env = state.env as RenderEnv;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== 'heading_open') continue;
    const id = token.attrGet('id');
    const inline = tokens[i + 1];
    if (!id || !inline?.children) continue;
    env.toc.push({ level: Number(token.tag.slice(1)), id, text: tokenText(inline.children) });
  }
}

/** The nested list a `[TOC]` paragraph is replaced with. */
function tocHtml(toc: TocEntry[]): string {
  if (toc.length === 0) return '';
  const items = toc
    .map(
      (entry) =>
        `<li class="md-toc-level-${entry.level}"><a href="#${escapeHtml(encodeURIComponent(safeAnchorId(entry.id)))}">${escapeHtml(entry.text)}</a></li>`,
    )
    .join('');
  return `<nav class="md-toc"><ul>${items}</ul></nav>\n`;
}

/** Replaces paragraphs holding only `[TOC]` (editor.md's marker) with the table of contents. */
function tocMarker(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (
      tokens[i].type === 'paragraph_open' &&
      tokens[i + 1].type === 'inline' &&
      /^\[toc\]$/i.test(tokens[i + 1].content.trim()) &&
      tokens[i + 2].type === 'paragraph_close'
    ) {
      const block = new state.Token('html_block', '', 0);
      block.content = tocHtml((state.env as RenderEnv).toc);
      tokens.splice(i, 3, block);
    }
  }
}

const LINE_MARKED = new Set([
  'paragraph_open',
  'heading_open',
  'list_item_open',
  'tr_open',
  'fence',
  'code_block',
  'hr',
]);

/**
 * Each block carries its first source line (`data-md-line`): "show changes" highlights the blocks
 * the server found changed by that line (models/readMarkers/blocks.ts splits with the same parser).
 */
function markSourceLines(state: StateCore): void {
  for (const token of state.tokens)
    if (token.map && LINE_MARKED.has(token.type))
      token.attrSet('data-md-line', String(token.map[0]));
}

function createMarkdownIt(): MarkdownIt {
  const md: MarkdownIt = new MarkdownIt({
    html: true,
    linkify: true,
    breaks: true,
    typographer: false,
    highlight(code, language) {
      const highlight = highlighter();
      if (!highlight || !language) return '';
      return highlight.highlight(code, language);
    },
  });
  md.use(mathPlugin);
  md.use(taskLists, { enabled: false });
  md.use(anchor, { slugify, tabIndex: false, level: [1, 2, 3, 4, 5, 6] });
  md.core.ruler.push('toc_collect', collectToc);
  md.core.ruler.push('toc_marker', tocMarker);
  md.core.ruler.push('source_lines', markSourceLines);

  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env: RenderEnv, self) => {
    const token = tokens[idx];
    const language = token.info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (language === 'mermaid') {
      env.needs.mermaid = true;
      return `<div class="md-mermaid"><pre class="md-mermaid-source">${escapeHtml(token.content)}</pre></div>\n`;
    }
    if (MATH_FENCES.has(language)) return `${renderMath(token.content, true, env)}\n`;
    if (language && !env.needs.highlight.includes(language)) env.needs.highlight.push(language);
    return fence(tokens, idx, options, env, self);
  };

  // Wide tables scroll sideways inside the page instead of widening it.
  md.renderer.rules.table_open = () => '<div class="md-table-wrap"><table>\n';
  md.renderer.rules.table_close = () => '</table></div>\n';

  const image = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('loading', 'lazy');
    return image(tokens, idx, options, env, self);
  };
  return md;
}

let instance: MarkdownIt | null = null;

function markdownIt(): MarkdownIt {
  instance ??= createMarkdownIt();
  return instance;
}

/** Renders Markdown (raw, already un-escaped) to sanitised HTML, with its TOC and needs. */
export function renderDocument(markdown: string): RenderedDocument {
  const env = newEnv();
  const html = sanitizeHtml(markdownIt().render(markdown, env));
  const toc = env.toc.map((entry) => ({ ...entry, id: safeAnchorId(entry.id) }));
  return { html, toc, needs: env.needs };
}

/** Renders Markdown (raw, already un-escaped) to sanitised HTML. */
export function renderMarkdown(markdown: string): string {
  return renderDocument(markdown).html;
}
