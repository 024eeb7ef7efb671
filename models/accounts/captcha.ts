/**
 * Image captchas (reference accounts §2.8), used by login, registration and item/pwd.
 *
 * A captcha is a row with four characters and an expiry. The check is single use: any answer,
 * right or wrong, expires the row at once (even if the password that came with a right one then
 * turns out wrong), so one captcha is never guessed at twice. The image is
 * drawn afresh on every request from the stored text (svg-captcha paths, rasterised to PNG by
 * resvg's WebAssembly build: no native code, no fonts needed on the machine).
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Resvg } from '@resvg/resvg-wasm';
import { nowSeconds, throttle } from '../platform';
import { Captcha } from './schemas/captcha';

/** No 0/1/I/O: they are too easy to confuse in a distorted image. */
export const CAPTCHA_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_TTL_SECONDS = 600;
/** Rows are deleted (TTL index) this long after they were made (well past their 600 s life). */
const PURGE_AFTER_SECONDS = 3600;

const IMAGE = { width: 150, height: 40, fontSize: 44, noise: 3 };

export function randomCaptchaText(): string {
  let text = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++)
    text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return text;
}

/** Captcha ids are random below this (a safe integer: clients send the id back as a number). */
const CAPTCHA_ID_LIMIT = 2 ** 48;

/**
 * Makes a captcha and returns its id (what `common/createCaptcha` answers). Ids are random, so
 * one id tells nothing about others; creation is throttled per client address.
 */
export async function createCaptcha(input: { ip: string }): Promise<number> {
  await throttle('captcha', input.ip);
  const now = nowSeconds();
  for (;;) {
    const captchaId = randomInt(1, CAPTCHA_ID_LIMIT);
    try {
      await Captcha.create({
        captcha_id: captchaId,
        mobile: '',
        captcha: randomCaptchaText(),
        expire_time: now + CAPTCHA_TTL_SECONDS,
        purge_at: new Date((now + PURGE_AFTER_SECONDS) * 1000),
      });
      return captchaId;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error; // else: id taken, draw again
    }
  }
}

/**
 * True when `answer` matches the live captcha `captchaId` (case-insensitive, trimmed). Any attempt
 * uses the captcha up, right or wrong: a wrong guess must not leave the same image open for a
 * second try. The row is claimed atomically, so of concurrent attempts only one is even compared.
 * Never throws for bad input.
 */
export async function checkCaptcha(captchaId: number, answer: string): Promise<boolean> {
  const text = typeof answer === 'string' ? answer.trim() : '';
  if (!Number.isSafeInteger(captchaId) || captchaId <= 0) return false;
  const now = nowSeconds();
  const row = await Captcha.findOneAndUpdate(
    { captcha_id: captchaId, expire_time: { $gt: now } },
    { $set: { expire_time: 0 } },
    { projection: { captcha: 1 } },
  ).lean();
  if (!row || text === '' || text.length > 32) return false;
  return row.captcha.toUpperCase() === text.toUpperCase();
}

type RenderSvg = (text: string, options: Record<string, unknown>) => string;

interface Rasteriser {
  renderSvg: RenderSvg;
  Resvg: typeof Resvg;
}

let wasmReady: Promise<Rasteriser> | undefined;

/** The drawing libraries and resvg's WebAssembly, loaded on the first captcha image. */
function ensureRasteriser(): Promise<Rasteriser> {
  wasmReady ??= (async () => {
    const [resvg, svgCaptcha] = await Promise.all([
      import('@resvg/resvg-wasm'),
      import('svg-captcha'),
    ]);
    const require = createRequire(import.meta.url);
    await resvg.initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    // svg-captcha's module itself is the render-this-text function (its typings omit it).
    return { renderSvg: svgCaptcha.default as unknown as RenderSvg, Resvg: resvg.Resvg };
  })().catch((error: unknown) => {
    wasmReady = undefined; // let a later request try again
    throw error;
  });
  return wasmReady;
}

/** A PNG picture of the text, with fresh noise and distortion on every call. */
export async function renderCaptchaPng(text: string): Promise<Buffer> {
  const { renderSvg, Resvg } = await ensureRasteriser();
  const svg = renderSvg(text, { ...IMAGE, color: false });
  const resvg = new Resvg(svg, { background: '#ffffff' });
  const image = resvg.render();
  try {
    return Buffer.from(image.asPng());
  } finally {
    image.free();
    resvg.free();
  }
}

/**
 * The PNG for `common/showCaptcha`, or null when there is no such captcha. Like ShowDoc it draws
 * expired captchas too (the check refuses them anyway).
 */
export async function captchaImage(captchaId: number): Promise<Buffer | null> {
  if (!Number.isSafeInteger(captchaId) || captchaId <= 0) return null;
  const row = await Captcha.findOne({ captcha_id: captchaId }, { captcha: 1 }).lean();
  if (!row) return null;
  return renderCaptchaPng(row.captcha);
}
