/**
 * page/sort and page/sqlToMarkdownTable over real HTTP.
 */
import { describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { Page } from '../../models/pages/schemas/page';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';

const suite = apiSuite({ item: {} });

const { as } = suite;
const orders = async (ids: number[]) =>
  (
    await Page.find({ page_id: { $in: ids } })
      .sort({ page_id: 1 })
      .lean()
  ).map((p) => p.s_number);

describe('page/sort', () => {
  test('anonymous → 10102; missing item_id or pages → 10101; readers → 10101; nothing reordered', async () => {
    const a = await makePage(suite.owner, suite.itemId);
    const pages = JSON.stringify({ [a.page_id]: 5 });
    expect(
      (await suite.server.api.fail('page/sort', { item_id: suite.itemId, pages })).error_code,
    ).toBe(10102);
    expect((await as(suite.owner).fail('page/sort', { pages })).error_code).toBe(10101);
    expect((await as(suite.owner).fail('page/sort', { item_id: suite.itemId })).error_code).toBe(
      10101,
    );
    expect(
      (await as(suite.reader).fail('page/sort', { item_id: suite.itemId, pages })).error_code,
    ).toBe(10101);
    expect(await orders([a.page_id])).toEqual([99]);
  });

  test("an editor sets s_number from a JSON map (also HTML-escaped); other items' pages are skipped; menu.changed", async () => {
    const [a, b] = [
      await makePage(suite.owner, suite.itemId),
      await makePage(suite.owner, suite.itemId),
    ];
    const other = await makeItem(suite.owner);
    const foreign = await makePage(suite.owner, other.item_id);
    const seen: DomainEvents['menu.changed'][] = [];
    const stop = events.subscribe('menu.changed', (e) => void seen.push(e));
    try {
      const escaped = JSON.stringify({
        [a.page_id]: 2,
        [b.page_id]: 1,
        [foreign.page_id]: 7,
      }).replace(/"/g, '&quot;');
      expect(
        await as(suite.editor).ok('page/sort', { item_id: suite.itemId, pages: escaped }),
      ).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    expect(await orders([a.page_id, b.page_id])).toEqual([2, 1]);
    expect(await orders([foreign.page_id])).toEqual([99]);
    expect(seen).toEqual([{ itemId: suite.itemId, byUid: suite.editor.uid }]);
  });

  test('invalid JSON is a successful no-op, as in ShowDoc', async () => {
    const a = await makePage(suite.owner, suite.itemId);
    expect(
      await as(suite.owner).ok('page/sort', { item_id: suite.itemId, pages: '{not json' }),
    ).toEqual([]);
    expect(await orders([a.page_id])).toEqual([99]);
  });
});

describe('page/sqlToMarkdownTable', () => {
  const SQL = [
    'CREATE TABLE `user` (',
    "  `id` int(11) unsigned NOT NULL AUTO_INCREMENT COMMENT 'user id',",
    "  `name` varchar(50) DEFAULT 'guest' COMMENT 'display | name',",
    '  `note` text,',
    "  `price` decimal(10,2) NOT NULL DEFAULT '0.00',",
    '  PRIMARY KEY (`id`),',
    '  KEY `idx_name` (`name`)',
    ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='users';",
  ].join('\n');

  test('turns CREATE TABLE with column comments into the database-doc Markdown table', async () => {
    const { markdown } = await as(suite.reader).ok<{ markdown: string }>(
      'page/sqlToMarkdownTable',
      {
        sql: SQL,
      },
    );
    expect(markdown).toBe(
      [
        '',
        '- user users',
        '',
        '| 字段 | 类型 | 允许空 | 默认 | 说明 |',
        '| --- | --- | --- | --- | --- |',
        '| id | int (11) unsigned | 否 |  | user id |',
        '| name | varchar (50) | 是 | guest | display \\| name |',
        '| note | text | 是 |  | - |',
        '| price | decimal (10,2) | 否 | 0.00 | - |',
        '',
      ].join('\n'),
    );
  });

  test('anonymous → 10102; empty, oversize, unparseable or non-CREATE SQL → 10101', async () => {
    expect((await suite.server.api.fail('page/sqlToMarkdownTable', { sql: SQL })).error_code).toBe(
      10102,
    );
    for (const sql of [
      '',
      '   ',
      'CREATE TABL oops (',
      'SELECT 1',
      `CREATE TABLE t (a int) COMMENT '${'x'.repeat(100_001)}'`,
    ])
      expect((await as(suite.owner).fail('page/sqlToMarkdownTable', { sql })).error_code).toBe(
        10101,
      );
  });
});
