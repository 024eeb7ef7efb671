/** When the item list searches (spec 000 §2): more than one character, or one Chinese character. */
import { expect, test } from '@jest/globals';
import { shouldSearch } from '../../web/features/items/searchRule';

test('one Latin letter or digit does not search; two characters do', () => {
  expect(shouldSearch('')).toBe(false);
  expect(shouldSearch('a')).toBe(false);
  expect(shouldSearch('7')).toBe(false);
  expect(shouldSearch(' a ')).toBe(false);
  expect(shouldSearch('ab')).toBe(true);
  expect(shouldSearch('a1')).toBe(true);
});

test('a single Chinese character searches', () => {
  expect(shouldSearch('退')).toBe(true);
  expect(shouldSearch(' 款 ')).toBe(true);
  expect(shouldSearch('。')).toBe(false); // punctuation is not a word
});
