/** The Markdown the editor inserts for an attachment: a picture for images, a link otherwise. */

/** Brackets would end the link text early; a backslash keeps them literal. */
function linkText(name: string): string {
  return name.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

/** Spaces and parentheses would end the URL early (server URLs have none, but be safe). */
function linkTarget(url: string): string {
  return url.replace(
    /[\s()<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

export function attachmentMarkdown(file: {
  display_name: string;
  url: string;
  file_type?: string;
}): string {
  const link = `[${linkText(file.display_name)}](${linkTarget(file.url)})`;
  return /^image\//i.test(file.file_type ?? '') ? `!${link}` : link;
}

/**
 * A template as a block of its own: whatever follows the cursor starts after a blank line instead
 * of running on into the template's last list item or table row.
 */
export function templateBlock(text: string): string {
  return `${text.replace(/\s+$/, '')}\n\n`;
}
