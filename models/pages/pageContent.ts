/**
 * Page text on the wire (reference pages §1.9). Quire stores the Markdown the author wrote; ShowDoc
 * stored it HTML-escaped and its clients un-escape what they read exactly once. So:
 *
 *   in:  `is_urlencode=1` → `phpUrlDecode` once (PHP `urldecode`: `+` is a space, malformed `%`
 *        sequences stay as they are); nothing is escaped before storing.
 *   out: `escapeForClient` on every read that ShowDoc served escaped (page/info, infoByKey, the
 *        update answer of page/save, diff; history with `quotes: false` as ShowDoc did). A client
 *        that un-escapes once — ShowDoc's and Quire's own — gets the original text back.
 *
 * Titles are stored and served raw, as ShowDoc's current server does.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};

/** PHP `htmlspecialchars` (ENT_QUOTES, or ENT_NOQUOTES with `quotes: false`); entities escaped again. */
export function escapeForClient(text: string, options: { quotes?: boolean } = {}): string {
  const pattern = options.quotes === false ? /[&<>]/g : /[&<>"']/g;
  return text.replace(pattern, (ch) => ESCAPES[ch]);
}

const UNESCAPES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#039;': "'",
};

/** What ShowDoc's clients do once after reading (and what `page/sort` does to its JSON input). */
export function unescapeFromClient(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#0?39);/g, (entity) => UNESCAPES[entity]);
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * PHP `urldecode`: `%XX` → that byte, `+` → space, anything else (incl. a malformed `%`) kept. The
 * bytes are read as UTF-8; invalid sequences become U+FFFD instead of throwing (unlike
 * `decodeURIComponent`, which a hand-written script's stray `%` would make fail).
 */
export function phpUrlDecode(text: string): string {
  if (!/[%+]/.test(text)) return text;
  // Well-formed input (what every client sends) decodes identically with the built-in; it
  // throws on a stray `%` or invalid UTF-8, and keeps lone surrogates, which the byte-wise
  // reading below turns into U+FFFD.
  if (!/[\uD800-\uDFFF]/.test(text)) {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      // fall through to the byte-wise reading
    }
  }
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code === 0x25 &&
      i + 2 < text.length &&
      isHex(text.charCodeAt(i + 1)) &&
      isHex(text.charCodeAt(i + 2))
    ) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (code === 0x2b) {
      bytes.push(0x20);
    } else {
      // Keep surrogate pairs together so astral characters survive.
      const point = text.codePointAt(i) as number;
      const char = String.fromCodePoint(point);
      for (const byte of encoder.encode(char)) bytes.push(byte);
      if (point > 0xffff) i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
