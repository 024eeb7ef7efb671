/**
 * Shows server HTML (announcements) through an allow-list: the server already cleans it, and
 * this second pass keeps the page safe even from an older or foreign server. Only simple text
 * tags survive; links keep an http(s)/mailto/relative `href` and open in a new tab.
 */
import { useMemo } from 'react';

const ALLOWED = new Set([
  'P',
  'BR',
  'UL',
  'OL',
  'LI',
  'STRONG',
  'B',
  'EM',
  'I',
  'CODE',
  'PRE',
  'H1',
  'H2',
  'H3',
  'H4',
  'BLOCKQUOTE',
  'A',
  'SPAN',
]);
const SAFE_HREF = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;

function clean(node: Node, doc: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const children = [...element.childNodes].map((c) => clean(c, doc)).filter((c): c is Node => !!c);
  if (!ALLOWED.has(element.tagName)) {
    const fragment = doc.createDocumentFragment();
    children.forEach((c) => fragment.appendChild(c));
    return fragment;
  }
  const copy = doc.createElement(element.tagName.toLowerCase());
  if (element.tagName === 'A') {
    const href = element.getAttribute('href')?.trim() ?? '';
    if (SAFE_HREF.test(href)) {
      copy.setAttribute('href', href);
      copy.setAttribute('target', '_blank');
      copy.setAttribute('rel', 'noopener noreferrer');
    }
  }
  children.forEach((c) => copy.appendChild(c));
  return copy;
}

export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const out = document.implementation.createHTMLDocument('');
  const root = out.createElement('div');
  for (const child of [...doc.body.childNodes]) {
    const cleaned = clean(child, out);
    if (cleaned) root.appendChild(cleaned);
  }
  return root.innerHTML;
}

export function SafeHtml({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return <div dangerouslySetInnerHTML={{ __html: safe }} />;
}
