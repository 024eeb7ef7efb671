/**
 * `export/pdf` (Quire's addition beside ShowDoc's Word export): the whole item, one catalog or one
 * page as a print-ready PDF — a cover with the item's name, a table of contents (when there is
 * more than one page), then every page on a new sheet under its catalog path.
 *
 * The pages are rendered as the offline HTML export renders them (offlineHtml.ts: markdown-it,
 * the same sanitiser) with the reader's line breaks and code highlighting, and styled with the
 * reader's own stylesheet (web/markdown/markdown.css and highlight.js's github theme), so a page
 * prints as it reads. Pictures of the item are inlined as data: URLs; Chromium (pdfPrinter.ts)
 * prints the result without network or JavaScript. Who may export what is export/word's rule
 * (exportTree: editors, catalog restrictions, no drafts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import hljs from 'highlight.js/lib/common';
import { imageSize } from 'image-size';
import MarkdownIt from 'markdown-it';
import { type Actor } from '../access';
import { filesForExport } from '../files';
import { errors, formatNow } from '../platform';
import {
  exportTree,
  logItemExport,
  type ExportCatalog,
  type ExportPage,
  type ExportScope,
} from './exportTree';
import { escapeHtml, fileSignsOf, MARKDOWN_OPTIONS, renderPageBody } from './offlineHtml';
import { printPdf } from './pdfPrinter';
import { runapiToMarkdown } from './runapiMarkdown';

/** Pages one PDF may hold; a bigger item is exported a catalog at a time. */
export const MAX_PDF_PAGES = 500;
/** Picture bytes inlined at most (all pictures together); the rest print as their alt text. */
const MAX_PICTURE_BYTES = 50 * 1024 * 1024;
/** A picture's address while the page is sanitised (http(s) passes the sanitiser), then inlined. */
const PICTURE_PLACEHOLDER = 'https://quire-pdf.invalid/picture/';

const TOC_MARKER = /^[ \t]*\[toc\][ \t]*$/gim;

const PICTURE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

export interface PdfExport {
  fileName: string;
  pdf: Buffer;
}

export interface PdfOptions {
  /** PDF_CHROMIUM_PATH. */
  chromiumPath: string;
}

// The reader's renderer keeps single line breaks (as ShowDoc's editor showed them) and
// highlights fenced code; the sanitiser keeps highlight.js's `hljs-*` spans.
const markdown = new MarkdownIt({
  ...MARKDOWN_OPTIONS,
  breaks: true,
  highlight(code, language) {
    if (!language || !hljs.getLanguage(language)) return '';
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  },
});

let styles: string | undefined;

/** The folder of package.json: the root from the sources and from the dist-server/ bundle. */
function packageRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no package.json above the PDF export');
  }
}

/** The reader's content stylesheet and code theme, then the print layout. */
function stylesheet(): string {
  if (styles === undefined) {
    const reader = readFileSync(path.join(packageRoot(), 'web/markdown/markdown.css'), 'utf8');
    const require = createRequire(import.meta.url);
    const code = readFileSync(require.resolve('highlight.js/styles/github.css'), 'utf8');
    styles = `${reader}\n${code}\n${PRINT_CSS}`;
  }
  return styles;
}

const PRINT_CSS = `
@page { size: A4; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #1f2328;
  font-family: "Noto Sans", "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR",
    "DejaVu Sans", sans-serif; }
code, pre, kbd, samp { font-family: "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; }
.cover { height: 240mm; display: flex; flex-direction: column; justify-content: center; }
.cover h1 { font-size: 34px; margin: 0 0 12px; line-height: 1.3; }
.cover .scope { font-size: 20px; color: #3d4450; margin: 0 0 8px; }
.cover .description { font-size: 14px; color: #5c6370; margin: 0 0 24px; }
.cover .date { font-size: 12px; color: #8a8f98; }
.toc { break-before: page; }
.toc h2 { font-size: 22px; margin: 0 0 16px; }
.toc ul { list-style: none; margin: 0; padding-left: 18px; }
.toc > ul { padding-left: 0; }
.toc li { margin: 4px 0; font-size: 14px; }
.toc .toc-catalog > span { font-weight: 600; }
.toc a { color: #1f2328; text-decoration: none; }
.page { break-before: page; }
.page .path { font-size: 12px; color: #8a8f98; margin: 0 0 4px; }
.page .page-title { font-size: 26px; margin: 0 0 18px; padding-bottom: 8px;
  border-bottom: 2px solid #eceef2; }
.md-content pre, .md-content pre code { white-space: pre-wrap; overflow: visible; }
.md-content pre, .md-content table, .md-content img, .md-content blockquote { break-inside: avoid; }
.md-content table { border-collapse: collapse; max-width: 100%; }
.md-content th, .md-content td { border: 1px solid #d0d7de; padding: 6px 10px; }
.md-content img { max-width: 100%; }
.md-content h1, .md-content h2, .md-content h3 { break-after: avoid; }
`;

/** Pictures the pages show, read for `actor`, as data: URLs by sign. */
async function inlinePictures(actor: Actor, sources: string[]): Promise<Map<string, string>> {
  const found = await filesForExport(actor, sources.flatMap(fileSignsOf), MAX_PICTURE_BYTES);
  const out = new Map<string, string>();
  for (const file of found) {
    let type: string | undefined;
    try {
      type = PICTURE_TYPES[imageSize(file.bytes).type ?? ''];
    } catch {
      type = undefined; // an attachment that is not a picture stays a link
    }
    if (type) out.set(file.sign, `data:${type};base64,${file.bytes.toString('base64')}`);
  }
  return out;
}

interface Placed {
  page: ExportPage;
  /** Catalog names above the page. */
  path: string[];
}

function placePages(pages: ExportPage[], catalogs: ExportCatalog[]): Placed[] {
  const out: Placed[] = pages.map((page) => ({ page, path: [] }));
  const walk = (cat: ExportCatalog, above: string[]) => {
    const here = [...above, cat.cat_name];
    out.push(...cat.pages.map((page) => ({ page, path: here })));
    cat.catalogs.forEach((inner) => walk(inner, here));
  };
  catalogs.forEach((cat) => walk(cat, []));
  return out;
}

const anchor = (page: ExportPage) => `page-${page.page_id}`;
const titleOf = (page: ExportPage) => escapeHtml(page.page_title || '—');

function tocHtml(pages: ExportPage[], catalogs: ExportCatalog[], heading: string): string {
  const pageItem = (page: ExportPage) =>
    `<li class="toc-page"><a href="#${anchor(page)}">${titleOf(page)}</a></li>`;
  const catalogItem = (cat: ExportCatalog): string =>
    `<li class="toc-catalog"><span>${escapeHtml(cat.cat_name)}</span><ul>${cat.pages
      .map(pageItem)
      .join('')}${cat.catalogs.map(catalogItem).join('')}</ul></li>`;
  return `<nav class="toc"><h2>${escapeHtml(heading)}</h2><ul>${pages.map(pageItem).join('')}${catalogs
    .map(catalogItem)
    .join('')}</ul></nav>`;
}

/** `export/pdf` for the whole item, a catalog (`catId`) or a page (`pageId`). */
export async function exportPdf(
  actor: Actor,
  scope: ExportScope,
  options: PdfOptions,
): Promise<PdfExport> {
  const { access, tree } = await exportTree(actor, scope);
  const item = access.item;
  const placed = placePages(tree.pages, tree.catalogs);
  if (placed.length > MAX_PDF_PAGES)
    throw errors.refused(
      `A PDF holds at most ${MAX_PDF_PAGES} pages: export one catalog at a time instead`,
    );

  // editor.md's `[TOC]` marker: the PDF has its own contents and bookmarks, and the offline
  // renderer would print the marker as text.
  const sources = placed.map(({ page }) =>
    (runapiToMarkdown(page.page_content) ?? page.page_content).replace(TOC_MARKER, ''),
  );
  const pictures = await inlinePictures(actor, sources);
  const sections = placed.map(({ page, path: names }, i) => {
    const body = renderPageBody(
      sources[i],
      (sign, tag) => (tag === 'img' && pictures.has(sign) ? PICTURE_PLACEHOLDER + sign : undefined),
      markdown,
    ).replace(
      new RegExp(`${PICTURE_PLACEHOLDER.replace(/[.]/g, '\\.')}([0-9a-f]{32})`, 'g'),
      (_, sign: string) => pictures.get(sign)!,
    );
    const where = names.length ? `<p class="path">${names.map(escapeHtml).join(' › ')}</p>` : '';
    return `<section class="page" id="${anchor(page)}">${where}<h1 class="page-title">${titleOf(page)}</h1><div class="md-content">${body}</div></section>`;
  });

  const exportedAt = formatNow();
  const scopeName =
    scope.pageId && placed.length
      ? placed[0].page.page_title
      : scope.catId && tree.catalogs.length
        ? tree.catalogs[0].cat_name
        : '';
  const cover = `<header class="cover"><h1>${escapeHtml(item.item_name)}</h1>${
    scopeName ? `<p class="scope">${escapeHtml(scopeName)}</p>` : ''
  }${
    item.item_description ? `<p class="description">${escapeHtml(item.item_description)}</p>` : ''
  }<p class="date">${escapeHtml(exportedAt)}</p></header>`;
  const toc = placed.length > 1 ? tocHtml(tree.pages, tree.catalogs, item.item_name) : '';
  const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeHtml(item.item_name)}</title>
<style>${stylesheet()}</style></head>
<body>${cover}${toc}${sections.join('\n')}</body></html>`;

  const pdf = await printPdf(html, {
    chromiumPath: options.chromiumPath,
    footerHtml: escapeHtml(item.item_name),
  });
  await logItemExport(actor, item);
  return { fileName: 'showdoc_export.pdf', pdf };
}
