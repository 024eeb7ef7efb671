/**
 * The `common` controller over real HTTP: the landing page's settings, the version, QR codes and
 * the image captcha (creation and picture).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { CAPTCHA_ALPHABET } from '../../models/accounts/captcha';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { deleteSetting, setSetting } from '../../models/settings/settings';
import { nowSeconds } from '../../models/platform/time';
import { BROWSER_UA } from '../helpers/client';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
});

afterAll(async () => {
  await server.stop();
});

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Dark pixels of a 1-bit greyscale, unfiltered PNG (the form common/qrcode writes). */
function darkPixels(png: Buffer): boolean[][] {
  const { width, height } = pngSize(png);
  expect([png[24], png[25]]).toEqual([1, 0]); // bit depth 1, greyscale
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = Math.ceil(width / 8) + 1;
  const filters = new Set(Array.from({ length: height }, (_, y) => raw[y * rowBytes]));
  expect([...filters]).toEqual([0]);
  const dark = (x: number, y: number) =>
    ((raw[y * rowBytes + 1 + (x >> 3)] >> (7 - (x & 7))) & 1) === 0;
  return Array.from({ length: height }, (_, y) =>
    Array.from({ length: width }, (_, x) => dark(x, y)),
  );
}

async function get(pathname: string): Promise<Response> {
  return server.request(pathname, { headers: { 'user-agent': BROWSER_UA } });
}

describe('common/homePageSetting', () => {
  test('anonymous: ShowDoc defaults when nothing is stored', async () => {
    expect(await server.api.ok('common/homePageSetting')).toEqual({
      home_page: '',
      home_item: '',
      is_show_ai: 0,
      beian: '',
      register_open: 1,
    });
  });

  test('reports stored settings at once after they are written', async () => {
    const names = ['home_page', 'home_item', 'beian', 'register_open', 'open_ai_key'];
    await setSetting('home_page', '3');
    await setSetting('home_item', '42');
    await setSetting('beian', 'ICP 123');
    await setSetting('register_open', '0');
    await setSetting('open_ai_key', 'sk-secret-value');
    try {
      const data = await server.api.ok('common/homePageSetting');
      expect(data).toEqual({
        home_page: '3',
        home_item: '42',
        is_show_ai: 1,
        beian: 'ICP 123',
        register_open: 0,
      });
      expect(JSON.stringify(data)).not.toContain('sk-secret-value');
    } finally {
      for (const name of names) await deleteSetting(name);
    }
    expect(await server.api.ok('common/homePageSetting')).toMatchObject({ register_open: 1 });
  });
});

describe('common/version', () => {
  test('answers "v" + the package version', async () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', `file://${__filename}`), 'utf8'),
    );
    expect(await server.api.ok('common/version', {}, { method: 'GET' })).toEqual({
      version: `v${pkg.version}`,
    });
  });
});

describe('common/qrcode', () => {
  const url = 'https://docs.example.com/web/#/42/100?x=1&y=2';

  /** Pixel width ShowDoc's settings give: (modules + 2 × margin 2) × size, at error level H. */
  function expectedWidth(text: string, size: number): number {
    const modules = QRCode.create(text, { errorCorrectionLevel: 'H' }).modules.size;
    return (modules + 4) * size;
  }

  test('anonymous GET: a PNG at error level H, margin 2, 6 px per module by default', async () => {
    const res = await get(`/api/common/qrcode?url=${encodeURIComponent(url)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(pngSize(png).width).toBe(expectedWidth(url, 6));
    // Every module of the level-H symbol is drawn as a 6×6 block inside a 2-module white margin.
    const { modules } = QRCode.create(url, { errorCorrectionLevel: 'H' });
    const pixels = darkPixels(png);
    let wrong = 0;
    for (let y = 0; y < pixels.length; y++)
      for (let x = 0; x < pixels.length; x++) {
        const my = Math.floor(y / 6) - 2;
        const mx = Math.floor(x / 6) - 2;
        const inside = my >= 0 && mx >= 0 && my < modules.size && mx < modules.size;
        if (pixels[y][x] !== (inside && Boolean(modules.get(my, mx)))) wrong++;
      }
    expect(wrong).toBe(0);
  });

  test('size sets the module size; ≤ 0 means 6; large values are capped at 20', async () => {
    const sized = async (size: string) => {
      const res = await get(`/api/common/qrcode?url=${encodeURIComponent(url)}&size=${size}`);
      return pngSize(Buffer.from(await res.arrayBuffer())).width;
    };
    expect(await sized('3')).toBe(expectedWidth(url, 3));
    expect(await sized('0')).toBe(expectedWidth(url, 6));
    expect(await sized('abc')).toBe(expectedWidth(url, 6));
    expect(await sized('100000')).toBe(expectedWidth(url, 20));
  });

  test('the url is decoded once more, as ShowDoc does', async () => {
    const twice = encodeURIComponent(encodeURIComponent(url));
    const res = await get(`/api/common/qrcode?url=${twice}`);
    expect(pngSize(Buffer.from(await res.arrayBuffer())).width).toBe(expectedWidth(url, 6));
  });

  test('a missing, over-long or object url → envelope 10101, not an image', async () => {
    expect((await server.api.call('common/qrcode', {})).body.error_code).toBe(10101);
    expect(
      (await server.api.call('common/qrcode', { url: `https://x/${'a'.repeat(2000)}` })).body
        .error_code,
    ).toBe(10101);
    // Fits the length limit but not a level-H QR code.
    expect(
      (await server.api.call('common/qrcode', { url: '汉'.repeat(1500) })).body.error_code,
    ).toBe(10101);
    expect(
      (await server.api.call('common/qrcode', { url: { $ne: '' } }, { json: true })).body
        .error_code,
    ).toBe(10101);
  });
});

describe('common/createCaptcha', () => {
  test('anonymous: a numeric captcha_id for a 4-character row that expires in 600 s', async () => {
    const before = nowSeconds();
    const data = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
    expect(typeof data.captcha_id).toBe('number');
    const row = await Captcha.findOne({ captcha_id: data.captcha_id }).lean();
    expect(row!.mobile).toBe('');
    expect(row!.expire_time - before).toBeGreaterThanOrEqual(599);
    expect(row!.expire_time - before).toBeLessThanOrEqual(601);
    expect(row!.purge_at.getTime()).toBeGreaterThan(row!.expire_time * 1000);
  });

  test('texts use only A–Z without I and O, and digits 2–9', async () => {
    expect(CAPTCHA_ALPHABET).toBe('ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
    const ids: number[] = [];
    for (let i = 0; i < 15; i++)
      ids.push((await server.api.ok<{ captcha_id: number }>('common/createCaptcha')).captcha_id);
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await Captcha.find({ captcha_id: { $in: ids } }).lean();
    for (const row of rows) expect(row.captcha).toMatch(/^[A-HJ-NP-Z2-9]{4}$/);
  });
});

describe('common/showCaptcha', () => {
  test('draws the captcha as an uncacheable PNG, differently each time', async () => {
    const { captcha_id } = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
    const first = await get(`/api/common/showCaptcha?captcha_id=${captcha_id}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const a = Buffer.from(await first.arrayBuffer());
    expect(pngSize(a)).toEqual({ width: 150, height: 40 });
    const second = await get(
      `/server/index.php?s=/api/common/showCaptcha&captcha_id=${captcha_id}`,
    );
    const b = Buffer.from(await second.arrayBuffer());
    expect(b.equals(a)).toBe(false);
  });

  test.each(['', '0', '-1', 'abc', '999999999'])(
    'captcha_id=%p → HTTP 404 with an empty body',
    async (id) => {
      const res = await get(`/api/common/showCaptcha?captcha_id=${id}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
    },
  );
});
