/**
 * The pure parts of models/search/search.ts: regex escaping, CJK detection, keyword rules, snippets.
 */
import { describe, expect, test } from '@jest/globals';
import { ApiError } from '../../models/platform/errors';
import { checkKeyword, escapeRegExp, isCjkCharacter, snippet } from '../../models/search/search';

describe('escapeRegExp', () => {
  test('every special character matches itself once escaped', () => {
    const nasty = '.*+?^${}()|[]\\/-';
    const pattern = new RegExp(escapeRegExp(nasty));
    expect(pattern.test(`before ${nasty} after`)).toBe(true);
    expect(pattern.test('anything else')).toBe(false);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});

describe('keywords', () => {
  test('CJK characters are recognised: Han, kana, Hangul', () => {
    for (const ch of ['数', '库', 'デ', 'の', '한', '글']) expect(isCjkCharacter(ch)).toBe(true);
    for (const ch of ['a', 'é', '1', '(', 'Ж', '。', 'Ａ']) expect(isCjkCharacter(ch)).toBe(false);
  });

  test('checkKeyword trims, accepts one CJK character, refuses one other character and overlong text', () => {
    expect(checkKeyword('  数据  ')).toBe('数据');
    expect(checkKeyword('库')).toBe('库');
    expect(checkKeyword('ab')).toBe('ab');
    for (const bad of ['', '   ', 'a', '(', 'x'.repeat(101)]) {
      let error: unknown;
      try {
        checkKeyword(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(10101);
    }
  });
});

describe('snippet', () => {
  test('escapes HTML, frames the hit with "...", and never splits a surrogate pair', () => {
    expect(snippet('<b>hit</b>', 3, 3)).toBe('...&lt;b&gt;hit&lt;/b&gt;...');
    const emoji = '😀'.repeat(120); // 240 UTF-16 units
    const text = `${emoji}needle`;
    const cut = snippet(text, text.indexOf('needle') - 1, 6);
    expect(cut.startsWith('...')).toBe(true);
    expect(cut).not.toMatch(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
    );
  });

  test('a title-only match takes the start of the content', () => {
    expect(snippet('content start', -1, 4)).toBe('...content start...');
  });
});
