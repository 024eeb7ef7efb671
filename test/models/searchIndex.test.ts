/**
 * The pure parts of models/search/pageIndex.ts: case folding as a case-insensitive regex compares,
 * the terms of a text (words, CJK characters and pairs) and what a keyword requires of a page.
 */
import { describe, expect, test } from '@jest/globals';
import { fold, keywordNeeds, termsOf } from '../../models/search/pageIndex';

describe('fold', () => {
  test('characters a case-insensitive regex treats as equal fold the same', () => {
    for (const [a, b] of [
      ['Endpoint', 'ENDPOINT'],
      ['λόγος', 'ΛΌΓΟΣ'],
      ['σ', 'ς'],
      ['µ', 'μ'],
      ['Straße', 'STRAßE'],
    ]) {
      expect(new RegExp(a, 'i').test(b)).toBe(true);
      expect(fold(a)).toBe(fold(b));
    }
  });
});

describe('terms', () => {
  test('words of any script, CJK characters and adjacent pairs; punctuation splits', () => {
    const terms = termsOf(fold('Rate-limited API文档 naïve_name 42'));
    expect([...terms].sort()).toEqual(
      ['RATE', 'LIMITED', 'API', '文', '档', '文档', 'NAÏVE_NAME', '42'].sort(),
    );
  });

  test('Korean and Japanese runs give characters and pairs', () => {
    expect([...termsOf(fold('설계'))].sort()).toEqual(['설', '계', '설계'].sort());
    expect(termsOf(fold('テスト'))).toEqual(new Set(['テ', 'ス', 'ト', 'テス', 'スト']));
  });
});

describe('keywordNeeds', () => {
  test('words (matched inside terms), CJK pairs, one CJK character alone', () => {
    expect(keywordNeeds('the endpoint')).toEqual({ words: ['THE', 'ENDPOINT'], exact: [] });
    expect(keywordNeeds('数据库')).toEqual({ words: [], exact: ['数据', '据库'] });
    expect(keywordNeeds('库')).toEqual({ words: [], exact: ['库'] });
    expect(keywordNeeds('API文档')).toEqual({ words: ['API'], exact: ['文档'] });
  });

  test('punctuation alone needs nothing the index can look up', () => {
    expect(keywordNeeds('.*()')).toEqual({ words: [], exact: [] });
  });
});
