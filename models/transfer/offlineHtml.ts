/**
 * The pieces of the offline HTML package (`exportHtml/export`): Markdown rendered to HTML and
 * sanitised here on the server (the package is opened from disk, where no app sanitises it),
 * a catalog tree written into every page as plain links (navigable without any script), the
 * stylesheet and the README. Files of the item are linked to their copies inside the package.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { ExportCatalog, ExportPage, ExportTree } from './exportTree';

/** A download or picture URL of Quire (any of ShowDoc's URL forms) carrying a file sign. */
const FILE_URL = /visitFile[^\s"'()<>]*?[?&]sign=([0-9a-f]{32})/gi;

/** The file signs a page's Markdown refers to. */
export function fileSignsOf(markdown: string): string[] {
  return [...markdown.matchAll(FILE_URL)].map((m) => m[1].toLowerCase());
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// ShowDoc pages mix HTML into their Markdown, so markdown-it passes it through and the
// sanitiser below decides what stays.
export const MARKDOWN_OPTIONS = { html: true, linkify: true } as const;
const markdown = new MarkdownIt(MARKDOWN_OPTIONS);

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'del',
    's',
    'ins',
    'sup',
    'sub',
    'details',
    'summary',
    'input',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    code: ['class'],
    span: ['class'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedClasses: { code: [/^language-[\w-]+$/], span: [/^hljs-[\w-]+$/] },
};

/**
 * One page's body: Markdown → HTML → sanitised, with links and pictures of packed files
 * pointing at their copies (`localFile(sign, tag)` gives the path inside the package, or
 * undefined). The PDF export passes its own markdown-it (MARKDOWN_OPTIONS plus highlighting).
 */
export function renderPageBody(
  source: string,
  localFile: (sign: string, tag: 'a' | 'img') => string | undefined,
  renderer: MarkdownIt = markdown,
): string {
  const relink = (url: string | undefined, tag: 'a' | 'img') => {
    const sign = url ? fileSignsOf(url)[0] : undefined;
    return (sign && localFile(sign, tag)) || url;
  };
  return sanitizeHtml(renderer.render(source), {
    ...SANITIZE,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, ...(attribs.href ? { href: relink(attribs.href, 'a')! } : {}) },
      }),
      img: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, ...(attribs.src ? { src: relink(attribs.src, 'img')! } : {}) },
      }),
      // Task-list boxes only show their state.
      input: (tagName, attribs) => ({
        tagName,
        attribs: {
          type: 'checkbox',
          disabled: '',
          ...('checked' in attribs ? { checked: '' } : {}),
        },
      }),
    },
  });
}

export function pagePath(page: Pick<ExportPage, 'page_id'>): string {
  return `pages/page-${page.page_id}.html`;
}

/** The catalog tree as nested lists; `prefix` leads from the writing file to the package root. */
export function navTree(tree: ExportTree, prefix: string, currentPageId = 0): string {
  const pageItem = (page: ExportPage) =>
    `<li class="page${page.page_id === currentPageId ? ' current' : ''}"><a href="${prefix}${pagePath(page)}">${escapeHtml(page.page_title || '—')}</a></li>`;
  const catalogItem = (cat: ExportCatalog): string =>
    `<li class="catalog"><details open><summary>${escapeHtml(cat.cat_name)}</summary><ul>${cat.catalogs
      .map(catalogItem)
      .join('')}${cat.pages.map(pageItem).join('')}</ul></details></li>`;
  return `<ul class="tree">${tree.catalogs.map(catalogItem).join('')}${tree.pages.map(pageItem).join('')}</ul>`;
}

export interface Frame {
  title: string;
  itemName: string;
  prefix: string;
  nav: string;
  body: string;
}

export function htmlDocument(frame: Frame): string {
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(frame.title)}</title>
<link rel="stylesheet" href="${frame.prefix}assets/css/common.css">
</head>
<body>
<header><a href="${frame.prefix}index.html">${escapeHtml(frame.itemName)}</a></header>
<div class="layout">
<nav>${frame.nav}</nav>
<main>${frame.body}</main>
</div>
</body>
</html>
`;
}

export const COMMON_CSS = `body{margin:0;font:15px/1.6 -apple-system,"Segoe UI",Roboto,"PingFang SC","Microsoft YaHei",sans-serif;color:#222}
header{padding:12px 20px;border-bottom:1px solid #e5e5e5;font-size:18px;font-weight:600}
header a{color:inherit;text-decoration:none}
.layout{display:flex;align-items:flex-start}
nav{width:280px;flex:none;padding:12px;border-right:1px solid #e5e5e5;min-height:calc(100vh - 50px);box-sizing:border-box}
nav ul{list-style:none;margin:0;padding-left:14px}
nav .tree{padding-left:0}
nav summary{cursor:pointer;font-weight:500}
nav li.current>a{font-weight:600;color:#1677ff}
nav a{color:#333;text-decoration:none}
main{flex:1;min-width:0;padding:20px 32px;max-width:960px}
main img{max-width:100%}
main pre{background:#f6f8fa;padding:12px;overflow:auto;border-radius:4px}
main code{background:#f6f8fa;padding:1px 4px;border-radius:3px}
main pre code{padding:0}
main table{border-collapse:collapse}
main th,main td{border:1px solid #ddd;padding:6px 10px}
main blockquote{margin:0;padding-left:12px;border-left:4px solid #ddd;color:#555}
@media (max-width:720px){.layout{display:block}nav{width:auto;min-height:0;border-right:0;border-bottom:1px solid #e5e5e5}}
`;

export function readme(itemName: string, exportedAt: string): string {
  return `Offline HTML package of "${itemName}"
Exported: ${exportedAt}

Unpack the archive anywhere and open index.html in a browser. The catalog on the left leads to
every page; pictures and attachments are in assets/uploads/. The package is a read-only copy:
export again to bring it up to date.
`;
}
