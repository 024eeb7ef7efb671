/**
 * What an uploaded file really is, told from its first bytes (magic numbers), and which client
 * file names Quire accepts. A file is stored only when its name's extension is on the allow-list
 * (ShowDoc's list, reference pages §3.13), none of its extensions is on the block-list, and its
 * content is of the kind that extension promises — so an HTML page or a script renamed `.png`, or
 * an SVG, is refused whatever it is called.
 *
 * Only the formats of the allow-list are recognised; anything else is "unknown" and refused.
 * (The `file-type` package is ESM-only, which the CommonJS test runtime cannot load; the list is
 * short enough to keep its signatures here.)
 */

/** Bytes of the file's start that detection needs (an ISO 9660 image is recognised at 32 KiB). */
export const SNIFF_BYTES = 64 * 1024;

export type DetectedKind =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'ico'
  | 'psd'
  | 'pdf'
  | 'zip'
  | 'cfb'
  | 'rar'
  | 'gzip'
  | 'tar'
  | 'iso'
  | 'mp3'
  | 'wav'
  | 'flac'
  | 'mp4'
  | 'mov'
  | 'mkv'
  | 'der'
  | 'text';

/** The content type a kind is served with. Only raster images are ever shown inline. */
export const KIND_MIME: Record<DetectedKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  psd: 'image/vnd.adobe.photoshop',
  pdf: 'application/pdf',
  zip: 'application/zip',
  cfb: 'application/x-cfb',
  rar: 'application/vnd.rar',
  gzip: 'application/gzip',
  tar: 'application/x-tar',
  iso: 'application/x-iso9660-image',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  der: 'application/pkix-cert',
  text: 'text/plain',
};

/** Raster images a browser renders as pictures (never scriptable): served inline. */
export const INLINE_IMAGE_KINDS: ReadonlySet<DetectedKind> = new Set([
  'png',
  'jpeg',
  'gif',
  'webp',
  'bmp',
  'ico',
]);

/** Audio and video keep their real type (players need it) but are still served as downloads. */
const MEDIA_KINDS: ReadonlySet<DetectedKind> = new Set(['mp3', 'wav', 'flac', 'mp4', 'mov', 'mkv']);

const RASTER: DetectedKind[] = ['png', 'jpeg', 'gif', 'webp', 'bmp', 'ico'];

/** Allowed last extension → the content kinds it may hold. */
const ALLOWED: Record<string, DetectedKind[]> = {
  jpg: RASTER,
  jpeg: RASTER,
  png: RASTER,
  gif: RASTER,
  bmp: RASTER,
  webp: RASTER,
  ico: RASTER,
  psd: ['psd'],
  mp3: ['mp3'],
  wav: ['wav'],
  flac: ['flac'],
  mp4: ['mp4', 'mov'],
  mov: ['mov', 'mp4'],
  mkv: ['mkv'],
  zip: ['zip'],
  apk: ['zip'],
  ipa: ['zip'],
  docx: ['zip'],
  xlsx: ['zip'],
  pptx: ['zip'],
  epub: ['zip'],
  xps: ['zip'],
  tar: ['tar'],
  gz: ['gzip'],
  tgz: ['gzip'],
  rar: ['rar'],
  iso: ['iso'],
  pdf: ['pdf'],
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
  wps: ['cfb', 'zip'],
  pub: ['cfb', 'text'],
  cer: ['der', 'text'],
  txt: ['text'],
  // Markdown is text (served as text/plain, as a download): its text is searchable.
  md: ['text'],
  markdown: ['text'],
  csv: ['text'],
  json: ['text'],
  css: ['text'],
};

/** The editor's image upload (spec 001 §9: jpg, jpeg, gif, png, bmp, webp). */
export const IMAGE_UPLOAD_EXTENSIONS: ReadonlySet<string> = new Set([
  'jpg',
  'jpeg',
  'gif',
  'png',
  'bmp',
  'webp',
]);
const IMAGE_UPLOAD_KINDS: DetectedKind[] = ['png', 'jpeg', 'gif', 'webp', 'bmp'];

/**
 * Extensions refused anywhere in a name (`shell.php.jpg`): server scripts as in ShowDoc, plus the
 * markup a browser would run (html, svg, xml, js).
 */
const BLOCKED = new Set(
  (
    'php php3 php4 php5 php7 php8 phtml pht phps phar jsp jspx jspa jsw jsv asp aspx asa asax ' +
    'ascx ashx cfm cfml pl cgi py sh bash zsh bat cmd com scr vb vbe vbs ws wsf hta htaccess ' +
    'shtml shtm stm html htm xhtml xht svg svgz xml xsl xslt js mjs cjs swf exe dll msi jar'
  ).split(' '),
);

function startsWith(head: Buffer, bytes: number[] | string, offset = 0): boolean {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return (
    head.length >= offset + sig.length && head.subarray(offset, offset + sig.length).equals(sig)
  );
}

/** Plain UTF-8 text (the head may end inside a multi-byte character) without NUL bytes. */
function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  let body = head;
  // Drop a trailing partial UTF-8 sequence so a cut character is not taken for garbage.
  for (let back = 1; back <= 3 && back <= body.length; back++) {
    const byte = body[body.length - back];
    if ((byte & 0xc0) !== 0x80) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      if (need > back) body = body.subarray(0, body.length - back);
      break;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return false;
  }
  // Control characters other than tab, newline, carriage return, form feed and escape: binary.
  for (const byte of body) if (byte < 0x20 && ![9, 10, 12, 13, 27].includes(byte)) return false;
  return true;
}

/** Text a browser might take for a document: starts (after a BOM and blanks) with markup. */
export function looksLikeMarkup(head: Buffer): boolean {
  const text = head
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return text.startsWith('<');
}

function isMp3(head: Buffer): boolean {
  if (startsWith(head, 'ID3')) return true;
  // An MPEG audio frame header: 11 sync bits, a valid version, layer III/II/I.
  return (
    head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0
  );
}

function isBmp(head: Buffer): boolean {
  if (!startsWith(head, 'BM') || head.length < 18) return false;
  return [12, 40, 52, 56, 64, 108, 124].includes(head.readUInt32LE(14));
}

/** ISO base media (MP4, QuickTime): a box type at offset 4. */
function isoMediaKind(head: Buffer): DetectedKind | null {
  if (head.length < 12) return null;
  const box = head.subarray(4, 8).toString('latin1');
  if (box === 'ftyp') return head.subarray(8, 12).toString('latin1') === 'qt  ' ? 'mov' : 'mp4';
  if (['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(box)) return 'mov';
  return null;
}

/** The kind of content, or null when it is none Quire accepts. */
export function detectKind(head: Buffer): DetectedKind | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) return 'gif';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'webp';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WAVE', 8)) return 'wav';
  if (isBmp(head)) return 'bmp';
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00]) && head.length >= 6 && head.readUInt16LE(4) > 0)
    return 'ico';
  if (startsWith(head, '8BPS')) return 'psd';
  if (startsWith(head, '%PDF-')) return 'pdf';
  if (startsWith(head, 'PK\x03\x04') || startsWith(head, 'PK\x05\x06')) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'cfb';
  if (startsWith(head, 'Rar!\x1a\x07')) return 'rar';
  if (startsWith(head, [0x1f, 0x8b, 0x08])) return 'gzip';
  if (startsWith(head, 'ustar', 257)) return 'tar';
  if (startsWith(head, 'CD001', 32769)) return 'iso';
  if (startsWith(head, 'fLaC')) return 'flac';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'mkv';
  const media = isoMediaKind(head);
  if (media) return media;
  if (isMp3(head)) return 'mp3';
  if (startsWith(head, [0x30, 0x82])) return 'der';
  if (head.length > 0 && isText(head) && !looksLikeMarkup(head)) return 'text';
  return null;
}

/** The dot-separated extensions of a name (all but the first segment), lower-cased. */
export function extensionsOf(name: string): string[] {
  const cleaned = name
    .replace(/\0/g, '')
    .trim()
    .replace(/[.\s]+$/, '');
  return cleaned
    .split('.')
    .slice(1)
    .map((ext) => ext.trim().toLowerCase());
}

export type NameVerdict =
  { ok: true; ext: string } | { ok: false; reason: 'blocked' | 'not-allowed' | 'no-extension' };

/** Checks a client file name (already sanitised) against the block- and allow-lists. */
export function checkFileName(name: string, purpose: 'file' | 'image'): NameVerdict {
  const exts = extensionsOf(name);
  if (exts.some((ext) => BLOCKED.has(ext))) return { ok: false, reason: 'blocked' };
  const ext = exts.at(-1);
  if (!ext) return { ok: false, reason: 'no-extension' };
  const allowed = purpose === 'image' ? IMAGE_UPLOAD_EXTENSIONS.has(ext) : ext in ALLOWED;
  return allowed ? { ok: true, ext } : { ok: false, reason: 'not-allowed' };
}

/** Whether content of `kind` may be stored under extension `ext` for this purpose. */
export function contentMatches(
  ext: string,
  kind: DetectedKind,
  purpose: 'file' | 'image',
): boolean {
  if (purpose === 'image') return IMAGE_UPLOAD_KINDS.includes(kind);
  return (ALLOWED[ext] ?? []).includes(kind);
}

/** The extension a nameless image gets (`blob` → `blob.png`). */
export function extensionForKind(kind: DetectedKind): string {
  return kind === 'jpeg' ? 'jpg' : kind;
}

/** How a stored file of this type is sent: inline raster images, everything else as a download. */
export function servingOf(fileType: string): { contentType: string; inline: boolean } {
  const kind = (Object.keys(KIND_MIME) as DetectedKind[]).find((k) => KIND_MIME[k] === fileType);
  if (kind && INLINE_IMAGE_KINDS.has(kind)) return { contentType: KIND_MIME[kind], inline: true };
  if (kind && (MEDIA_KINDS.has(kind) || kind === 'pdf'))
    return { contentType: KIND_MIME[kind], inline: false };
  return { contentType: 'application/octet-stream', inline: false };
}
