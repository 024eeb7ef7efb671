/**
 * The success envelope as text: fields a model keeps as JSON text (RawJson) are spliced in, and
 * the answer is exactly what serialising the parsed value would give (key order, skipped
 * undefined fields, the empty payload as []).
 */
import { describe, expect, test } from '@jest/globals';
import { successJson } from '../../api/envelope';
import { RawJson } from '../../models/platform';

describe('successJson', () => {
  test('a RawJson field is spliced in and the text equals serialising the parsed value', () => {
    const menu = {
      pages: [{ page_id: '1', page_title: 'Ünïcode "quoted" </script>' }],
      catalogs: [],
    };
    const data = {
      item_id: '7',
      menu: new RawJson(JSON.stringify(menu)),
      skipped: undefined,
      is_login: true,
    };
    const text = successJson(data).toString('utf8');
    expect(text).toBe(
      JSON.stringify({ error_code: 0, data: { item_id: '7', menu, is_login: true } }),
    );
    expect(JSON.parse(text).data.menu).toEqual(menu);
  });

  test('answers without RawJson are plain JSON, and an empty payload is []', () => {
    expect(successJson({ a: 1 }).toString()).toBe('{"error_code":0,"data":{"a":1}}');
    expect(successJson(undefined).toString()).toBe('{"error_code":0,"data":[]}');
    expect(successJson([1, 2]).toString()).toBe('{"error_code":0,"data":[1,2]}');
  });
});
