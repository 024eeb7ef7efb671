/**
 * The API client's pure parts: ShowDoc's form encoding (arrays as key[], booleans as 1/0, absent
 * values left out) and which failures count as "the item is missing or deleted" (spec 000 §4).
 */
import { expect, test } from '@jest/globals';
import { encodeForm, isMissingItem } from '../../web/api/request';

test('parameters are form-encoded the way ShowDoc reads them', () => {
  const form = encodeForm({
    item_id: 12,
    keyword: 'a&b=c',
    is_private: true,
    flag: false,
    ids: [1, 2],
    skipped: undefined,
    nothing: null,
  });
  expect(form.toString()).toBe(
    'item_id=12&keyword=a%26b%3Dc&is_private=1&flag=0&ids%5B%5D=1&ids%5B%5D=2',
  );
});

test('missing or deleted items are recognised by code or by message, other failures are not', () => {
  expect(isMissingItem(10401, 'whatever')).toBe(true);
  expect(isMissingItem(10402, '')).toBe(true);
  expect(isMissingItem(10101, 'The item does not exist or was deleted')).toBe(true);
  expect(isMissingItem(10101, 'project does not exist or was deleted')).toBe(true);
  expect(isMissingItem(10101, '项目不存在或者已删除')).toBe(true);
  expect(isMissingItem(10101, 'Item not found')).toBe(true);
  expect(isMissingItem(10101, 'Page does not exist')).toBe(false);
  expect(isMissingItem(10208, 'Wrong password')).toBe(false);
  expect(isMissingItem(0, 'Item not found')).toBe(false);
});
