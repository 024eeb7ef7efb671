/**
 * The captcha rules in models/accounts/captcha.ts against a real (embedded) database: single use, case and
 * whitespace, the 10 s penalty, expiry, bad input, concurrent answers, and the purge index.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { checkCaptcha, createCaptcha, renderCaptchaPng } from '../../models/accounts/captcha';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { nowSeconds } from '../../models/platform/time';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
});

afterAll(async () => {
  await server.stop();
});

async function fresh(): Promise<{ id: number; text: string }> {
  const id = await createCaptcha({ ip: '127.0.0.1' });
  const row = await Captcha.findOne({ captcha_id: id }).lean();
  return { id, text: row!.captcha };
}

function wrongAnswer(text: string): string {
  return text === 'AAAA' ? 'BBBB' : 'AAAA';
}

describe('checkCaptcha', () => {
  test('a right answer passes once and expires the captcha', async () => {
    const { id, text } = await fresh();
    expect(await checkCaptcha(id, text)).toBe(true);
    expect((await Captcha.findOne({ captcha_id: id }).lean())!.expire_time).toBe(0);
    expect(await checkCaptcha(id, text)).toBe(false);
  });

  test('answers are compared case-insensitively after trimming', async () => {
    const { id, text } = await fresh();
    expect(await checkCaptcha(id, `\t ${text.toLowerCase()}  `)).toBe(true);
  });

  test('a wrong answer burns the captcha: the right text afterwards fails (issue 32)', async () => {
    const { id, text } = await fresh();
    expect(await checkCaptcha(id, wrongAnswer(text))).toBe(false);
    expect(await checkCaptcha(id, text)).toBe(false);
  });

  test('an expired captcha fails even with the right text', async () => {
    const { id, text } = await fresh();
    await Captcha.updateOne({ captcha_id: id }, { $set: { expire_time: nowSeconds() } });
    expect(await checkCaptcha(id, text)).toBe(false);
  });

  test('bad ids fail without touching any row; an empty answer to a real one burns it', async () => {
    const { id, text } = await fresh();
    const before = (await Captcha.findOne({ captcha_id: id }).lean())!.expire_time;
    for (const captchaId of [0, -id, Number.NaN, 1.5])
      expect(await checkCaptcha(captchaId, text)).toBe(false);
    expect((await Captcha.findOne({ captcha_id: id }).lean())!.expire_time).toBe(before);
    expect(await checkCaptcha(id, '   ')).toBe(false);
    expect(await checkCaptcha(id, text)).toBe(false);
  });

  test('of several simultaneous right answers exactly one wins', async () => {
    const { id, text } = await fresh();
    const results = await Promise.all(Array.from({ length: 6 }, () => checkCaptcha(id, text)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('captcha storage and image', () => {
  test('rows carry a TTL index so old captchas are purged by the database', async () => {
    const indexes = await Captcha.collection.indexes();
    const ttl = indexes.find((index) => index.key.purge_at === 1);
    expect(ttl?.expireAfterSeconds).toBe(0);
    expect(indexes.find((index) => index.key.captcha_id === 1)?.unique).toBe(true);
  });

  test('renderCaptchaPng draws a 150×40 PNG', async () => {
    const png = await renderCaptchaPng('K7XP');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(150);
    expect(png.readUInt32BE(20)).toBe(40);
  });
});
