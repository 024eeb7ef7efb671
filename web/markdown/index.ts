/**
 * The content renderer shared by every screen that shows page content. `renderMarkdown` is pure
 * and DOM-free apart from the sanitiser (see sanitize.ts); `<Markdown>` (Markdown.tsx) adds the
 * browser-only parts: loading math, code highlighting and diagrams on demand.
 */
export { renderDocument, renderMarkdown, type RenderedDocument } from './renderer';
export type { TocEntry, RenderNeeds } from './env';
export { unescapeHtml, escapeHtml } from './unescape';
export {
  pageMarkdown,
  parseApiDoc,
  apiDocToMarkdown,
  ENGLISH_API_LABELS,
  type ApiDocLabels,
} from './apiDoc';
export { sanitizeHtml, setSanitizerWindow } from './sanitize';
