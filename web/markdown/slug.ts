/**
 * Heading anchors: lower case, letters and digits of any script kept (Chinese headings get
 * readable anchors), punctuation dropped, spaces to dashes — GitHub's rule, so links written for
 * GitHub (`#getting-started`) work here too. markdown-it-anchor makes repeated slugs unique.
 */
export function slugify(text: string): string {
  const slug = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s+/g, '-');
  return slug || 'section';
}
