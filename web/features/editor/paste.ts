/**
 * Paste rules (spec 001 §4/§5): images are uploaded and linked; text under 200 characters goes in
 * as plain text; a longer paste that carries HTML asks whether to convert it to Markdown or keep
 * the text. Conversion is turndown's (GFM-style fences and dashes), loaded on first use.
 */
export const SHORT_PASTE_CHARS = 200;

export type PasteKind =
  | { kind: 'image'; file: File }
  | { kind: 'html'; html: string; text: string }
  | { kind: 'default' };

export function classifyPaste(data: DataTransfer | null): PasteKind {
  if (!data) return { kind: 'default' };
  const image = Array.from(data.files ?? []).find((file) => file.type.startsWith('image/'));
  if (image) return { kind: 'image', file: image };
  const text = data.getData('text/plain');
  const html = data.getData('text/html');
  if (html && text.length >= SHORT_PASTE_CHARS) return { kind: 'html', html, text };
  return { kind: 'default' };
}

export async function htmlToMarkdown(html: string): Promise<string> {
  const { default: TurndownService } = await import('turndown');
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  // Styles and scripts of the copied page are not content.
  service.remove(['style', 'script', 'meta', 'title']);
  return service.turndown(html).trim();
}
