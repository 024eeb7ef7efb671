/**
 * The one HTML sanitiser of rendered content (DESIGN §7): DOMPurify over markdown-it's output, so
 * no script, no event handler, no `javascript:` (or other script-capable) URL, no form or frame
 * survives — also inside SVG and MathML. On top of DOMPurify's defaults:
 *
 * - no <style> elements (a page must not restyle the app around it); inline `style` attributes
 *   stay, as ShowDoc pages use them for colour and KaTeX for layout, unless they reach for
 *   script or fixed positioning;
 * - every <input> becomes a disabled checkbox (task lists are the only inputs Markdown makes);
 * - links leaving the site open in a new tab with `rel="noopener noreferrer nofollow"`.
 *
 * DOMPurify needs a DOM: in the browser it uses `window`; elsewhere (Node tests) a window must be
 * supplied once with `setSanitizerWindow` (e.g. jsdom's) — this module itself imports no DOM.
 */
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';

const FORBID_TAGS = [
  'style',
  'form',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'base',
  'link',
  'meta',
  'noscript',
  'template',
];
const FORBID_ATTR = ['formaction', 'autofocus', 'ping'];

const CONTENT_CONFIG: Config = { FORBID_TAGS, FORBID_ATTR };

/** Mermaid's SVG: its own scoped <style> and HTML labels in <foreignObject> are kept. */
const DIAGRAM_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true, html: true },
  ADD_TAGS: ['foreignObject', 'style'],
  FORBID_TAGS: FORBID_TAGS.filter((tag) => tag !== 'style'),
  FORBID_ATTR,
  HTML_INTEGRATION_POINTS: { foreignobject: true },
};

const UNSAFE_STYLE =
  /javascript:|vbscript:|expression\s*\(|-moz-binding|behavior\s*:|@import|position\s*:\s*(fixed|sticky)/i;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * DOMPurify drops an `id` that names a property of `document` or of a form (DOM clobbering:
 * `<h1 id="cookie">`), which would leave a heading called "Title" or "Images" without its
 * anchor. Such heading ids get a suffix instead; the table of contents applies the same rule.
 */
let clobberTest: ((name: string) => boolean) | null = null;

export function safeAnchorId(id: string): string {
  if (!clobberTest) getPurifier();
  return clobberTest!(id) ? `${id}-section` : id;
}

function addHooks(purifier: DOMPurify, win: WindowLike & { document: Document }): DOMPurify {
  const form = win.document.createElement('form');
  clobberTest = (name) => name in win.document || name in form;
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'id') data.attrValue = safeAnchorId(data.attrValue);
    // Browsers no longer run script from CSS, but an inline style must not try, nor pin
    // itself over the app's own interface.
    if (data.attrName === 'style' && UNSAFE_STYLE.test(data.attrValue)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (!element.tagName) return;
    const tag = element.tagName.toUpperCase();
    if (tag === 'A' && element.hasAttribute('href')) {
      const href = element.getAttribute('href') ?? '';
      if (EXTERNAL.test(href.trim())) {
        element.setAttribute('target', '_blank');
        element.setAttribute('rel', 'noopener noreferrer nofollow');
      } else element.removeAttribute('target');
    }
    if (tag === 'INPUT') {
      element.setAttribute('type', 'checkbox');
      element.setAttribute('disabled', '');
      element.removeAttribute('name');
      element.removeAttribute('value');
    }
  });
  return purifier;
}

let purifier: DOMPurify | null = null;

/** Supplies the DOM window DOMPurify works in (Node; the browser's own is used by default). */
export function setSanitizerWindow(win: unknown): void {
  const windowLike = win as WindowLike & { document: Document };
  purifier = addHooks(createDOMPurify(windowLike), windowLike);
}

/** Whether a sanitiser (and so a DOM) is available. */
export function sanitizerReady(): boolean {
  return !!purifier || (typeof window !== 'undefined' && createDOMPurify.isSupported);
}

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  if (typeof window === 'undefined' || !createDOMPurify.isSupported)
    throw new Error('No DOM for the sanitiser: call setSanitizerWindow(window) first');
  purifier = addHooks(createDOMPurify(window), window);
  return purifier;
}

/** Safe HTML of rendered Markdown (or any user HTML). */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, CONTENT_CONFIG) as unknown as string;
}

/** Safe markup of a drawn diagram (mermaid SVG). */
export function sanitizeDiagram(svg: string): string {
  return getPurifier().sanitize(svg, DIAGRAM_CONFIG) as unknown as string;
}
