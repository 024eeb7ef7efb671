/**
 * The editor's text tools (spec 001 §2 document tools, §5): JSON to a parameter table, beautify
 * JSON, spreadsheet cells to a Markdown table.
 */
import { describe, expect, test } from '@jest/globals';
import {
  asBlock,
  beautifyJson,
  jsonToMarkdownTable,
  JsonParseError,
  markdownTable,
  parseDelimited,
  tabularToMarkdownTable,
} from '../../web/features/editor/tools/markdownTools';

const EN = { name: 'Parameter', type: 'Type', description: 'Description', noDescription: 'none' };
const ZH = { name: '参数名', type: '类型', description: '说明', noDescription: '无' };

describe('jsonToMarkdownTable', () => {
  test('one row per key with its JSON type, under the given headers', () => {
    const json = '{"id": 7, "name": "Ann", "ratio": 0.5, "active": true, "gone": null}';
    expect(jsonToMarkdownTable(json, EN)).toBe(
      [
        '| Parameter | Type | Description |',
        '| :--- | :--- | :--- |',
        '| id | number | none |',
        '| name | string | none |',
        '| ratio | number | none |',
        '| active | boolean | none |',
        '| gone | null | none |',
      ].join('\n'),
    );
  });

  test('nested objects become parent.child rows; an array is described by its first element', () => {
    const json = JSON.stringify({
      error_code: 0,
      data: {
        user: { uid: 1, tags: ['a', 'b'] },
        list: [{ page_id: 3, author: { name: 'x' } }, { ignored: true }],
        matrix: [[{ x: 1 }]],
        empty: [],
      },
    });
    expect(jsonToMarkdownTable(json, ZH).split('\n')).toEqual([
      '| 参数名 | 类型 | 说明 |',
      '| :--- | :--- | :--- |',
      '| error_code | number | 无 |',
      '| data | object | 无 |',
      '| data.user | object | 无 |',
      '| data.user.uid | number | 无 |',
      '| data.user.tags | array | 无 |',
      '| data.list | array | 无 |',
      '| data.list.page_id | number | 无 |',
      '| data.list.author | object | 无 |',
      '| data.list.author.name | string | 无 |',
      '| data.matrix | array | 无 |',
      '| data.matrix.x | number | 无 |',
      '| data.empty | array | 无 |',
    ]);
  });

  test('a top-level array describes its first object', () => {
    expect(jsonToMarkdownTable('[{"a": "1"}, {"b": 2}]', EN).split('\n').slice(2)).toEqual([
      '| a | string | none |',
    ]);
  });

  test('a key holding | or a line break cannot break the table', () => {
    expect(jsonToMarkdownTable('{"a|b": 1, "c\\nd": 2}', EN).split('\n').slice(2)).toEqual([
      '| a\\|b | number | none |',
      '| c<br>d | number | none |',
    ]);
  });

  test('invalid JSON, or JSON without an object, throws JsonParseError', () => {
    for (const bad of ['{"a": 1', 'not json', '', '42', '"text"', '[1, 2]', 'null']) {
      expect(() => jsonToMarkdownTable(bad, EN)).toThrow(JsonParseError);
    }
  });
});

describe('beautifyJson', () => {
  test('valid JSON becomes a pretty-printed fenced json block on lines of its own', () => {
    expect(beautifyJson('{"a":1,"b":[true,null],"c":{"d":"e"}}')).toBe(
      [
        '',
        '```json',
        '{',
        '  "a": 1,',
        '  "b": [',
        '    true,',
        '    null',
        '  ],',
        '  "c": {',
        '    "d": "e"',
        '  }',
        '}',
        '```',
        '',
      ].join('\n'),
    );
    expect(beautifyJson(' [1,2] ')).toBe('\n```json\n[\n  1,\n  2\n]\n```\n');
  });

  test('a string value with backticks gets a longer fence', () => {
    expect(beautifyJson('{"code":"```js"}')).toBe('\n````json\n{\n  "code": "```js"\n}\n````\n');
  });

  test('anything that is not JSON comes back unchanged', () => {
    expect(beautifyJson('{a: 1}')).toBe('{a: 1}');
    expect(beautifyJson('plain words\nline two')).toBe('plain words\nline two');
    expect(beautifyJson('')).toBe('');
  });
});

describe('tabular paste', () => {
  test('tab-separated rows from a spreadsheet become a table with the first row as header', () => {
    const copied = 'Name\tAge\tCity\r\nAnn\t31\tParis\r\nBob\t\tOslo\r\n';
    expect(tabularToMarkdownTable(copied)).toBe(
      [
        '| Name | Age | City |',
        '| :--- | :--- | :--- |',
        '| Ann | 31 | Paris |',
        '| Bob |  | Oslo |',
      ].join('\n'),
    );
  });

  test('| is escaped; quoted cells keep tabs, quotes and line breaks; short rows are padded', () => {
    const copied = 'a|b\t"say ""hi""\tthere"\n"two\nlines"\n\nlast\tx\ty';
    expect(tabularToMarkdownTable(copied).split('\n')).toEqual([
      '| a\\|b | say "hi"\tthere |  |',
      '| :--- | :--- | :--- |',
      '| two<br>lines |  |  |',
      '| last | x | y |',
    ]);
  });

  test('without tabs the text is read as comma-separated values', () => {
    expect(tabularToMarkdownTable('id, name\n1, "Smith, J."\n2,Lee').split('\n')).toEqual([
      '| id | name |',
      '| :--- | :--- |',
      '| 1 | Smith, J. |',
      '| 2 | Lee |',
    ]);
  });

  test('nothing but blank lines gives nothing', () => {
    expect(tabularToMarkdownTable('')).toBe('');
    expect(tabularToMarkdownTable('\n \n')).toBe('');
  });

  test('parseDelimited reads \\r line ends and a quote inside an unquoted cell literally', () => {
    expect(parseDelimited('5" screen,b\rc,d', ',')).toEqual([
      ['5" screen', 'b'],
      ['c', 'd'],
    ]);
  });
});

test('markdownTable and asBlock', () => {
  expect(markdownTable([])).toBe('');
  expect(markdownTable([['only']])).toBe('| only |\n| :--- |');
  expect(asBlock('| a |\n| :--- |')).toBe('\n\n| a |\n| :--- |\n\n');
});
