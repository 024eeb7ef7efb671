/**
 * ShowDoc's `common` controller (reference accounts §8.10–§8.13): the landing page's site
 * settings, the version, QR codes for share links, and the image captcha.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import type QRCodeLib from 'qrcode';
import { defineController } from '../registry';
import { errors, failure } from '../../models/platform';
import { captchaImage, createCaptcha } from '../../models/accounts';
import { getSiteSettings } from '../../models/settings';
import { visitFile } from './attachment';

const QR_DEFAULT_SIZE = 6;
/** Module size cap: size 20 of a long URL is already a ~2,000 px image. */
const QR_MAX_SIZE = 20;
const QR_MAX_URL_LENGTH = 2000;

let version: string | undefined;

/**
 * The package.json nearest above this module: the root's both from the sources (api/routes/)
 * and from the bundle `npm start` runs (dist-server/, server/serverBuild.ts).
 */
function nearestPackageJson(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error('no package.json');
  }
}

/** `v` + package.json's version, read once (ShowDoc answers e.g. "v3.9.2"). */
export function packageVersion(): string {
  if (version === undefined) {
    try {
      const text = readFileSync(nearestPackageJson(), 'utf8');
      const parsed = JSON.parse(text) as { version?: unknown };
      if (typeof parsed.version !== 'string' || parsed.version === '')
        throw new Error('no version');
      version = `v${parsed.version}`;
    } catch {
      throw errors.internal('Version information is unavailable');
    }
  }
  return version;
}

/** ShowDoc URL-decodes `url` once more on top of the transport's decoding. */
function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

const QR_MARGIN = 2;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The QR symbol (from the qrcode package, error correction H) as a 1-bit greyscale PNG with a
 * 2-module quiet zone and `scale` pixels per module. Encoded here rather than by qrcode's pngjs
 * renderer, which spends 60-260 ms of CPU per image on RGBA filtering: too much for an
 * anonymous endpoint.
 */
export function qrCodePng(text: string, scale: number): Buffer {
  // qrcode (CommonJS) loads with the first code drawn, not when a process starts.
  const QRCode = createRequire(import.meta.url)('qrcode') as typeof QRCodeLib;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'H' });
  const width = (modules.size + QR_MARGIN * 2) * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * width, 0xff); // all white
  for (let y = 0; y < width; y++) {
    const rowStart = y * (rowBytes + 1);
    raw[rowStart] = 0; // the row's filter byte: none
    const my = Math.floor(y / scale) - QR_MARGIN;
    if (my < 0 || my >= modules.size) continue;
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - QR_MARGIN;
      if (mx < 0 || mx >= modules.size || !modules.get(my, mx)) continue;
      raw[rowStart + 1 + (x >> 3)] &= ~(0x80 >> (x & 7)); // a dark module is a 0 bit (black)
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const commonController = defineController('common', {
  async homePageSetting() {
    const settings = await getSiteSettings();
    return {
      home_page: settings.homePage,
      home_item: settings.homeItem,
      is_show_ai: settings.aiEnabled ? 1 : 0,
      beian: settings.beian,
      register_open: settings.registerOpen ? 1 : 0,
    };
  },

  version() {
    return { version: packageVersion() };
  },

  /** A PNG QR code of `url` (error correction H, margin 2, `size` pixels per module). */
  async qrcode(ctx) {
    const raw = ctx.params.str('url');
    if (raw.length > QR_MAX_URL_LENGTH)
      throw failure(`The URL must be at most ${QR_MAX_URL_LENGTH} characters`);
    const url = decodeOnce(raw);
    if (url === '') throw failure('The url parameter is required');
    let size = ctx.params.int('size', QR_DEFAULT_SIZE);
    if (size <= 0) size = QR_DEFAULT_SIZE;
    size = Math.min(size, QR_MAX_SIZE);
    let png: Buffer;
    try {
      png = qrCodePng(url, size);
    } catch {
      // Level H holds about 1,200 bytes: a longer (multi-byte) text does not fit in any version.
      throw failure('The URL is too long for a QR code');
    }
    ctx.res
      .set('Content-Type', 'image/png')
      .set('Cache-Control', 'public, max-age=86400')
      .send(png);
  },

  async createCaptcha(ctx) {
    return { captcha_id: await createCaptcha({ ip: ctx.ip }) };
  },

  /** The captcha picture; HTTP 404 with an empty body when there is no such captcha. */
  async showCaptcha(ctx) {
    // An <img> asks for it: an id that is not one is a missing picture (404), not an envelope.
    const raw = ctx.params.str('captcha_id').trim();
    const png = /^\d+$/.test(raw) ? await captchaImage(Number(raw)) : null;
    ctx.res.set('Cache-Control', 'no-store');
    if (!png) {
      ctx.res.status(404).end();
      return;
    }
    ctx.res.set('Content-Type', 'image/png').send(png);
  },

  /** Alias of attachment/visitFile (reference accounts §8.14). */
  visitFile,
});
