/**
 * Page content leaves the API HTML-escaped (reference pages §1.9: `&amp; &lt; &gt; &quot; &#039;`,
 * and `&#39;` from older servers). Every screen that shows or edits content un-escapes it exactly
 * once, here: one pass, so `&amp;lt;` (a literal "&lt;" the author typed) becomes `&lt;`, never `<`.
 */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#039;': "'",
};

export function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#0?39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
