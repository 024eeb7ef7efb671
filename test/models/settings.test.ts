/**
 * Site settings (models/settings/settings.ts) against a real database: ShowDoc's effective defaults, the
 * parsing of stored strings, and the cache that a write through setSetting drops at once.
 */
import { describe, expect, test } from '@jest/globals';
import { Option } from '../../models/settings/schemas/options';
import {
  decodeJsonOption,
  deleteSetting,
  getAllSettings,
  getSetting,
  getSiteSettings,
  invalidateSettings,
  setSetting,
} from '../../models/settings/settings';
import { serverSuite } from '../helpers/apiSuite';

serverSuite();

async function withSettings(values: Record<string, string>, check: () => Promise<void>) {
  for (const [name, value] of Object.entries(values)) await setSetting(name, value);
  try {
    await check();
  } finally {
    for (const name of Object.keys(values)) await deleteSetting(name);
  }
}

describe('site settings', () => {
  test('an empty options table gives ShowDoc’s effective defaults (history 20, tokens 180 days)', async () => {
    expect(await getSiteSettings()).toEqual({
      registerOpen: true,
      // Registration open: the member picker lists only the people one works with (issue 32).
      userDirectoryOpen: false,
      homePage: '',
      homeItem: '',
      beian: '',
      historyVersionCount: 20,
      showWatermark: false,
      forceLogin: false,
      strongPasswordEnabled: false,
      enablePublicSquare: false,
      tokenTtlDays: 180,
      siteUrl: '',
      aiEnabled: false,
      aiMaxMessageLength: 8000,
      aiToolRounds: 20,
      oauth2Open: null,
      oauth2Form: null,
      memberQuota: null,
      pageQuota: null,
      uploadMaxBytes: 100 * 1024 * 1024,
      createSample: true,
      ossOpen: false,
      ossSetting: null,
    });
  });

  test('only the exact string "0" closes registration', async () => {
    for (const [value, open] of [
      ['0', false],
      ['1', true],
      ['', true],
      ['00', true],
    ] as const)
      await withSettings({ register_open: value }, async () => {
        expect((await getSiteSettings()).registerOpen).toBe(open);
      });
  });

  test('numbers are read like PHP intval and kept within bounds', async () => {
    await withSettings(
      { token_ttl_days: '0', history_version_count: 'abc', force_login: '2', show_watermark: '1x' },
      async () => {
        const s = await getSiteSettings();
        expect(s.tokenTtlDays).toBe(180);
        expect(s.historyVersionCount).toBe(20);
        expect(s.forceLogin).toBe(true);
        expect(s.showWatermark).toBe(true);
      },
    );
    await withSettings({ token_ttl_days: '99999', history_version_count: '50' }, async () => {
      const s = await getSiteSettings();
      expect(s.tokenTtlDays).toBe(3650);
      expect(s.historyVersionCount).toBe(50);
    });
    await withSettings({ member_quota: '25', upload_max_mb: '5' }, async () => {
      const s = await getSiteSettings();
      expect(s.memberQuota).toBe(25);
      expect(s.uploadMaxBytes).toBe(5 * 1024 * 1024);
    });
  });

  test('an AI key (new or legacy option name) turns the AI entrance on', async () => {
    await withSettings({ open_ai_key: 'k' }, async () => {
      expect((await getSiteSettings()).aiEnabled).toBe(true);
    });
    await withSettings({ open_api_key: 'k' }, async () => {
      expect((await getSiteSettings()).aiEnabled).toBe(true);
    });
  });

  test('JSON forms are decoded, HTML entities and all; anything else is null', () => {
    expect(decodeJsonOption('{&quot;a&quot;:&quot;x &amp; y&quot;}')).toEqual({ a: 'x & y' });
    expect(decodeJsonOption('{"a":1}')).toEqual({ a: 1 });
    expect(decodeJsonOption('[1,2]')).toBeNull();
    expect(decodeJsonOption('not json')).toBeNull();
    expect(decodeJsonOption('')).toBeNull();
  });

  test('setSetting stores a string row and is visible at once; raw writes after invalidation', async () => {
    await setSetting('beian', 'ICP 1');
    expect(await getSetting('beian')).toBe('ICP 1');
    expect((await Option.findOne({ option_name: 'beian' }).lean())!.option_value).toBe('ICP 1');
    await setSetting('beian', 'ICP 2');
    expect((await getSiteSettings()).beian).toBe('ICP 2');
    expect(await Option.countDocuments({ option_name: 'beian' })).toBe(1);

    // A write from elsewhere (another process, an import) shows once the cache is dropped.
    await Option.updateOne({ option_name: 'beian' }, { $set: { option_value: 'ICP 3' } });
    invalidateSettings();
    expect(await getSetting('beian')).toBe('ICP 3');
    expect(await getAllSettings()).toMatchObject({ beian: 'ICP 3' });

    await deleteSetting('beian');
    expect(await getSetting('beian')).toBeNull();
  });
});
