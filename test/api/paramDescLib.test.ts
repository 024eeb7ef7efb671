/**
 * paramDescLib/* over real HTTP against ShowDoc's answer shapes (camelCase entries with decoded
 * lists, `{data,total,page,pageSize}` pages, stats, import previews, JSON/CSV exports): add and
 * the temp variants, update with the quality score recomputed, delete one/many, promote, batch
 * adds and batch saves, usage counts. Per action: anonymous → 10102, bad input → an error with
 * nothing written, readers (for writes) and strangers → 10303, then success.
 */
import { describe, expect, test } from '@jest/globals';
import { ParamDescEntry } from '../../models/workbench/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { eventually } from '../helpers/embedded';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';

const suite = apiSuite();
const { as } = suite;

async function newItem(): Promise<number> {
  const { item_id } = await makeItem(suite.owner, { password: 'secret' });
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  return item_id;
}

interface Entry {
  id: string;
  name: string;
  type: string;
  description: string;
  example: string;
  status: string;
  source: string;
  itemId: number;
  usageCount: number;
  qualityScore: number;
  defaultValue: string;
  enumValues: unknown[];
  aliases: unknown[];
  tags: unknown[];
  createdBy: number;
  updatedAt: number;
}

const add = (itemId: number, fields: Record<string, string | number>) =>
  as(suite.editor).ok<Entry>('paramDescLib/addEntry', { itemId, ...fields });

describe('entries', () => {
  test('addEntry answers the entry in ShowDoc’s shape; getEntries pages and filters', async () => {
    const itemId = await newItem();
    const entry = await add(itemId, {
      name: 'user_id',
      type: 'int',
      description: 'The user’s id',
      example: '42',
      enumValues: '["1","2"]',
      tags: '["user"]',
    });
    expect(entry).toMatchObject({
      id: expect.stringMatching(/^\w+_\d{4}$/),
      name: 'user_id',
      type: 'int',
      description: 'The user’s id',
      example: '42',
      itemId,
      status: 'permanent',
      source: 'manual',
      usageCount: 0,
      qualityScore: 0.7,
      enumValues: ['1', '2'],
      tags: ['user'],
      aliases: [],
      createdBy: suite.editor.uid,
    });
    expect(entry.updatedAt).toBeGreaterThan(1_600_000_000_000);
    await add(itemId, { name: 'token', description: 'Login token' });
    await as(suite.editor).ok('paramDescLib/addTempEntry', {
      itemId,
      name: 'page',
      description: 'Page number',
    });
    const temp = await as(suite.editor).ok<Entry>('paramDescLib/temp', {
      itemId,
      name: 'size',
      description: 'Page size',
    });
    expect(temp.status).toBe('temp');
    const page = await as(suite.reader).ok<{
      data: Entry[];
      total: number;
      page: number;
      pageSize: number;
    }>('paramDescLib/getEntries', { itemId, pageSize: 2 });
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(page.data[0].name).toBe('user_id'); // best quality first
    const byKeyword = await as(suite.editor).ok<{ data: Entry[] }>('paramDescLib/getEntries', {
      itemId,
      keyword: 'LOGIN',
    });
    expect(byKeyword.data.map((e) => e.name)).toEqual(['token']);
    const temps = await as(suite.editor).ok<{ total: number }>('paramDescLib/getEntries', {
      itemId,
      status: 'temp',
    });
    expect(temps.total).toBe(2);
    const tagged = await as(suite.editor).ok<{ data: Entry[] }>('paramDescLib/getEntries', {
      itemId,
      tag: 'user',
    });
    expect(tagged.data.map((e) => e.name)).toEqual(['user_id']);
  });

  test('add refusals: anonymous, missing name/description, duplicate name+type, bad list, reader, stranger', async () => {
    const itemId = await newItem();
    await add(itemId, { name: 'a', description: 'A' });
    const params = { itemId, name: 'b', description: 'B' };
    for (const route of [
      'paramDescLib/addEntry',
      'paramDescLib/addTempEntry',
      'paramDescLib/temp',
    ]) {
      expect((await suite.server.api.fail(route, params)).error_code).toBe(10102);
      expect((await as(suite.editor).fail(route, { itemId, name: 'b' })).error_code).toBe(10001);
      expect((await as(suite.editor).fail(route, { ...params, name: 'a' })).error_code).toBe(10001);
      expect(
        (await as(suite.editor).fail(route, { ...params, tags: '{not a list' })).error_code,
      ).toBe(10101);
      expect((await as(suite.reader).fail(route, params)).error_code).toBe(10303);
      expect((await as(suite.stranger).fail(route, params)).error_code).toBe(10303);
    }
    expect((await suite.server.api.fail('paramDescLib/getEntries', { itemId })).error_code).toBe(
      10102,
    );
    expect((await as(suite.editor).fail('paramDescLib/getEntries', {})).error_code).toBe(10001);
    expect((await as(suite.stranger).fail('paramDescLib/getEntries', { itemId })).error_code).toBe(
      10303,
    );
    expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(1);
  });

  test('updateEntry changes only what is sent and recomputes the score; refusals change nothing', async () => {
    const itemId = await newItem();
    const entry = await add(itemId, { name: 'id', description: 'Id' });
    expect(entry.qualityScore).toBe(0.4);
    const updated = await as(suite.owner).ok<Entry>('paramDescLib/updateEntry', {
      id: entry.id,
      example: '7',
      defaultValue: '0',
    });
    expect(updated).toMatchObject({
      id: entry.id,
      description: 'Id',
      example: '7',
      defaultValue: '0',
      qualityScore: 0.7,
    });
    expect(
      (await suite.server.api.fail('paramDescLib/updateEntry', { id: entry.id, example: 'x' }))
        .error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('paramDescLib/updateEntry', { example: 'x' })).error_code,
    ).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/updateEntry', { id: 'nope', example: 'x' }))
        .error_code,
    ).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/updateEntry', { id: entry.id })).error_code,
    ).toBe(10001);
    expect(
      (await as(suite.reader).fail('paramDescLib/updateEntry', { id: entry.id, example: 'x' }))
        .error_code,
    ).toBe(10303);
    expect(
      (await as(suite.stranger).fail('paramDescLib/updateEntry', { id: entry.id, example: 'x' }))
        .error_code,
    ).toBe(10303);
    expect((await ParamDescEntry.findOne({ id: entry.id }).lean())?.example).toBe('7');
  });

  test('deleteEntry, deleteEntries and promoteTemp; refusals change nothing', async () => {
    const itemId = await newItem();
    const a = await add(itemId, { name: 'a', description: 'A' });
    const b = await add(itemId, { name: 'b', description: 'B', status: 'temp' });
    const c = await add(itemId, { name: 'c', description: 'C', status: 'temp' });
    for (const [route, params] of [
      ['paramDescLib/deleteEntry', { id: a.id }],
      ['paramDescLib/deleteEntries', { ids: `${a.id},${b.id}` }],
      ['paramDescLib/promoteTemp', { ids: b.id }],
    ] as const) {
      expect((await suite.server.api.fail(route, params)).error_code).toBe(10102);
      expect((await as(suite.reader).fail(route, params)).error_code).toBe(10303);
      expect((await as(suite.stranger).fail(route, params)).error_code).toBe(10303);
    }
    expect((await as(suite.editor).fail('paramDescLib/deleteEntry', {})).error_code).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/deleteEntries', { ids: '' })).error_code,
    ).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/promoteTemp', { ids: 'nope' })).error_code,
    ).toBe(10001);
    expect(await ParamDescEntry.countDocuments({ item_id: itemId, status: 'temp' })).toBe(2);
    expect(
      await as(suite.editor).ok('paramDescLib/promoteTemp', { ids: [b.id, c.id] }, { json: true }),
    ).toEqual({ promoted: 2 });
    expect(await as(suite.editor).ok('paramDescLib/deleteEntry', { id: a.id })).toEqual({
      deleted: 1,
    });
    expect(
      await as(suite.editor).ok('paramDescLib/deleteEntries', { ids: `${b.id},${c.id}` }),
    ).toEqual({ deleted: 2 });
    expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(0);
  });
});

describe('batches and usage', () => {
  test('addBatchEntries / confirmImport add the entries of items one may edit and skip the rest', async () => {
    const itemId = await newItem();
    const foreign = (await makeItem(suite.stranger)).item_id;
    for (const route of ['paramDescLib/addBatchEntries', 'paramDescLib/confirmImport']) {
      const entries = [
        { itemId, name: `${route}-a`, type: 'string', description: 'A' },
        { itemId: foreign, name: 'x', type: 'string', description: 'X' },
      ];
      expect(
        (await suite.server.api.fail(route, { entries: JSON.stringify(entries) })).error_code,
      ).toBe(10102);
      expect((await as(suite.editor).fail(route, { entries: '[]' })).error_code).toBe(10001);
      expect((await as(suite.editor).fail(route, { entries: '{oops' })).error_code).toBe(10101);
      expect(await as(suite.reader).ok(route, { entries: JSON.stringify(entries) })).toEqual([]);
      const added = await as(suite.editor).ok<Entry[]>(route, { entries }, { json: true });
      expect(added.map((e) => [e.itemId, e.name])).toEqual([[itemId, `${route}-a`]]);
    }
    expect(await ParamDescEntry.countDocuments({ item_id: foreign })).toBe(0);
  });

  test('batchSave replaces the permanent entries and keeps temp ones', async () => {
    const itemId = await newItem();
    await add(itemId, { name: 'old', description: 'Old' });
    await add(itemId, { name: 'draft', description: 'Draft', status: 'temp' });
    const entries = [
      { name: 'new1', type: 'string', description: 'N1', usageCount: 3 },
      { name: 'new2', type: 'int', description: 'N2', example: '1' },
    ];
    expect(
      (
        await suite.server.api.fail('paramDescLib/batchSave', {
          itemId,
          entries: JSON.stringify(entries),
        })
      ).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('paramDescLib/batchSave', { itemId, entries: '[]' })).error_code,
    ).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/batchSave', { entries: JSON.stringify(entries) }))
        .error_code,
    ).toBe(10001);
    expect(
      (
        await as(suite.reader).fail('paramDescLib/batchSave', {
          itemId,
          entries: JSON.stringify(entries),
        })
      ).error_code,
    ).toBe(10303);
    expect(
      (
        await as(suite.stranger).fail('paramDescLib/batchSave', {
          itemId,
          entries: JSON.stringify(entries),
        })
      ).error_code,
    ).toBe(10303);
    expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(2);
    const saved = await as(suite.editor).ok<Entry[]>('paramDescLib/batchSave', {
      itemId,
      entries: JSON.stringify(entries),
    });
    expect(saved.map((e) => [e.name, e.usageCount, e.qualityScore])).toEqual([
      ['new1', 3, 0.46],
      ['new2', 0, 0.6],
    ]);
    const names = (await ParamDescEntry.find({ item_id: itemId }).lean()).map((e) => e.name).sort();
    expect(names).toEqual(['draft', 'new1', 'new2']);
  });

  test('updateUsage counts uses (one id or many) and reports unknown ids', async () => {
    const itemId = await newItem();
    const a = await add(itemId, { name: 'a', description: 'A' });
    const b = await add(itemId, { name: 'b', description: 'B' });
    expect(await as(suite.editor).ok('paramDescLib/updateUsage', { id: a.id })).toEqual({
      updated: 1,
    });
    expect(
      await as(suite.editor).ok('paramDescLib/updateUsage', { ids: `${a.id},${b.id},ghost` }),
    ).toEqual({
      updated: 2,
      notFound: ['ghost'],
    });
    const row = await ParamDescEntry.findOne({ id: a.id }).lean();
    expect(row).toMatchObject({ usage_count: 2, quality_score: 0.44 });
    expect((await suite.server.api.fail('paramDescLib/updateUsage', { id: a.id })).error_code).toBe(
      10102,
    );
    expect((await as(suite.editor).fail('paramDescLib/updateUsage', {})).error_code).toBe(10001);
    expect(
      (await as(suite.editor).fail('paramDescLib/updateUsage', { ids: 'ghost' })).error_code,
    ).toBe(10001);
    expect((await as(suite.reader).fail('paramDescLib/updateUsage', { id: a.id })).error_code).toBe(
      10303,
    );
    expect(
      (await as(suite.stranger).fail('paramDescLib/updateUsage', { id: a.id })).error_code,
    ).toBe(10303);
    expect((await ParamDescEntry.findOne({ id: a.id }).lean())?.usage_count).toBe(2);
  });
});

describe('stats, import and export', () => {
  test('stats counts entries, coverage and the most used fields', async () => {
    const itemId = await newItem();
    const a = await add(itemId, { name: 'a', description: 'A' });
    await add(itemId, { name: 'b', description: 'B', status: 'temp' });
    await as(suite.editor).ok('paramDescLib/updateUsage', { id: a.id });
    expect(await as(suite.reader).ok('paramDescLib/stats', { itemId })).toEqual({
      totalCount: 2,
      permanentCount: 1,
      tempCount: 1,
      coverageRate: 50,
      hitRate: 0,
      topFields: [
        { name: 'a', count: 1 },
        { name: 'b', count: 0 },
      ],
    });
    expect((await suite.server.api.fail('paramDescLib/stats', { itemId })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('paramDescLib/stats', {})).error_code).toBe(10001);
    expect((await as(suite.stranger).fail('paramDescLib/stats', { itemId })).error_code).toBe(
      10303,
    );
  });

  test('import previews kv, json and ddl text as new vs duplicated, writing nothing', async () => {
    const itemId = await newItem();
    await add(itemId, { name: 'uid', description: 'User id' });
    const kv = await as(suite.editor).ok<{ new: Entry[]; duplicated: Entry[] }>(
      'paramDescLib/import',
      {
        itemId,
        format: 'kv',
        rawText: 'uid: user id\nname: display name\nnot a pair',
      },
    );
    expect(kv.new.map((e) => [e.name, e.description])).toEqual([['name', 'display name']]);
    expect(kv.duplicated.map((e) => e.name)).toEqual(['uid']);
    const json = await as(suite.editor).ok<{ new: Entry[] }>('paramDescLib/import', {
      itemId,
      format: 'json',
      rawText: JSON.stringify({ id: 1, user: { name: 'a' }, tags: ['x'] }),
    });
    expect(json.new.map((e) => [e.name, e.type])).toEqual([
      ['id', 'number'],
      ['user', 'object'],
      ['user.name', 'string'],
      ['tags', 'array'],
    ]);
    const ddl = await as(suite.editor).ok<{ new: Entry[] }>('paramDescLib/import', {
      itemId,
      format: 'ddl',
      rawText: "`email` varchar(64) NOT NULL COMMENT 'Mail address',",
    });
    expect(ddl.new.map((e) => [e.name, e.description])).toEqual([['email', 'Mail address']]);
    expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(1);
    const params = { itemId, format: 'kv', rawText: 'a: b' };
    expect((await suite.server.api.fail('paramDescLib/import', params)).error_code).toBe(10102);
    expect(
      (await as(suite.editor).fail('paramDescLib/import', { ...params, rawText: '' })).error_code,
    ).toBe(10001);
    expect(
      (
        await as(suite.editor).fail('paramDescLib/import', {
          ...params,
          format: 'json',
          rawText: '{bad',
        })
      ).error_code,
    ).toBe(10001);
    expect((await as(suite.reader).fail('paramDescLib/import', params)).error_code).toBe(10303);
    expect((await as(suite.stranger).fail('paramDescLib/import', params)).error_code).toBe(10303);
  });

  test('export answers JSON text or CSV text, sorted by name', async () => {
    const itemId = await newItem();
    await add(itemId, { name: 'b', description: 'B "quoted"', tags: '["t"]' });
    await add(itemId, { name: 'a', description: 'A', example: '1' });
    const json = await as(suite.reader).ok<string>('paramDescLib/export', { itemId });
    expect(JSON.parse(json)).toEqual([
      {
        name: 'a',
        type: 'string',
        description: 'A',
        example: '1',
        aliases: [],
        tags: [],
        usageCount: 0,
      },
      {
        name: 'b',
        type: 'string',
        description: 'B "quoted"',
        example: '',
        aliases: [],
        tags: ['t'],
        usageCount: 0,
      },
    ]);
    const csv = await as(suite.editor).ok<string>('paramDescLib/export', { itemId, format: 'csv' });
    expect(csv.split('\n')).toEqual([
      'name,type,description,example,usage_count',
      '"a","string","A","1",0',
      '"b","string","B ""quoted""","",0',
      '',
    ]);
    expect((await suite.server.api.fail('paramDescLib/export', { itemId })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('paramDescLib/export', {})).error_code).toBe(10001);
    expect((await as(suite.stranger).fail('paramDescLib/export', { itemId })).error_code).toBe(
      10303,
    );
  });
});

describe('learning from saved API pages', () => {
  test('a saved Markdown API template adds its described parameters as temp entries, once', async () => {
    const itemId = await newItem();
    await add(itemId, { name: 'username', type: 'string', description: 'Known already' });
    const content = [
      '##### 参数',
      '',
      '|参数名|必选|类型|说明|',
      '|:----|:---|:-----|-----|',
      '|username |是 |string |用户名 |',
      '|password |是 |string | 密码 |',
      '|nickname |否 |string | |',
      '',
      '##### 返回参数说明',
      '',
      '|参数名|类型|说明|',
      '|:-----|:-----|-----|',
      '|groupid |int |用户组id |',
    ].join('\n');
    await as(suite.editor).ok('page/save', {
      item_id: itemId,
      page_title: 'Register',
      page_content: content,
    });
    const learnt = async () =>
      (await ParamDescEntry.find({ item_id: itemId, source: 'auto-extracted' }).lean())
        .map((e) => [e.name, e.type, e.description, e.status, e.created_by])
        .sort();
    await eventually(async () => expect(await learnt()).toHaveLength(2));
    expect(await learnt()).toEqual([
      ['groupid', 'int', '用户组id', 'temp', suite.editor.uid],
      ['password', 'string', '密码', 'temp', suite.editor.uid],
    ]);
    // The known entry is untouched; saving again adds nothing.
    expect(
      (await ParamDescEntry.findOne({ item_id: itemId, name: 'username' }).lean())?.description,
    ).toBe('Known already');
    // Saving again with one more row adds only that row (learnt in save order).
    await as(suite.editor).ok('page/save', {
      item_id: itemId,
      page_title: 'Register 2',
      page_content: `${content}\n|token |string |登录令牌 |`,
    });
    await eventually(async () =>
      expect(await ParamDescEntry.countDocuments({ item_id: itemId, name: 'token' })).toBe(1),
    );
    expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(4);
  });

  test('pages of whiteboard and kanban items teach nothing, whatever text they hold', async () => {
    const template = [
      '|参数名|必选|类型|说明|',
      '|:----|:---|:-----|-----|',
      '|sheetonly |是 |string |Not an API |',
    ].join('\n');
    const skipped: number[] = [];
    for (const item_type of [5, 6]) {
      const { item_id } = await makeItem(suite.owner, { item_type });
      skipped.push(item_id);
      await as(suite.owner).ok('page/save', {
        item_id,
        page_title: `Type ${item_type}`,
        page_content: template,
      });
    }
    // Learning runs in save order: once the regular item's page is learnt, the others were seen.
    const regular = await newItem();
    await as(suite.owner).ok('page/save', {
      item_id: regular,
      page_title: 'Regular',
      page_content: template,
    });
    await eventually(async () =>
      expect(await ParamDescEntry.countDocuments({ item_id: regular })).toBe(1),
    );
    expect(await ParamDescEntry.countDocuments({ item_id: { $in: skipped } })).toBe(0);
  });

  test('a saved RunApi page teaches the remarks of its rows', async () => {
    const itemId = await newItem();
    const doc = {
      info: { method: 'POST', url: 'https://api.example/login' },
      request: {
        query: [{ name: 'lang', type: 'string', remark: 'Interface language' }],
        params: {
          mode: 'urlencoded',
          urlencoded: [{ name: 'code', type: 'int', remark: 'SMS code' }],
        },
      },
    };
    await as(suite.owner).ok('page/save', {
      item_id: itemId,
      page_title: 'Login',
      page_content: JSON.stringify(doc),
    });
    await eventually(async () =>
      expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(2),
    );
    const entries = await as(suite.reader).ok<{ data: Entry[] }>('paramDescLib/getEntries', {
      itemId,
      status: 'temp',
    });
    expect(entries.data.map((e) => [e.name, e.type, e.description, e.source]).sort()).toEqual([
      ['code', 'int', 'SMS code', 'auto-extracted'],
      ['lang', 'string', 'Interface language', 'auto-extracted'],
    ]);
  });

  test('a member limited to some catalogs is not shown what was learnt from pages outside them', async () => {
    const itemId = await newItem();
    const open = await makeCatalog(suite.owner, itemId, 'Open');
    const closed = await makeCatalog(suite.owner, itemId, 'Closed');
    const limited = await makeUser();
    await addMember(itemId, limited, 1, [open]);
    const table = (name: string, description: string) =>
      `|参数名|类型|说明|\n|:---|:---|:---|\n|${name} |string |${description} |`;
    const secret = await makePage(suite.owner, itemId, {
      catId: closed,
      content: table('salary_band', 'Internal pay grade'),
    });
    await makePage(suite.owner, itemId, { catId: open, content: table('city', 'City name') });
    await add(itemId, { name: 'by_hand', description: 'Added by hand' });
    await eventually(async () =>
      expect(await ParamDescEntry.countDocuments({ item_id: itemId })).toBe(3),
    );
    expect(
      (await ParamDescEntry.findOne({ item_id: itemId, name: 'salary_band' }).lean())
        ?.source_page_id,
    ).toBe(secret.page_id);

    const names = async (user: typeof limited, params: Record<string, string | number> = {}) =>
      (
        await as(user).ok<{ data: Entry[]; total: number }>('paramDescLib/getEntries', {
          itemId,
          pageSize: 50,
          ...params,
        })
      ).data
        .map((e) => e.name)
        .sort();
    expect(await names(suite.reader)).toEqual(['by_hand', 'city', 'salary_band']);
    expect(await names(limited)).toEqual(['by_hand', 'city']);
    // The editor's suggestions (getEntries with a keyword) and the other reads hold to it too.
    expect(await names(limited, { keyword: 'sal' })).toEqual([]);
    expect(await names(suite.editor, { keyword: 'sal' })).toEqual(['salary_band']);
    const stats = await as(limited).ok<{ totalCount: number; tempCount: number }>(
      'paramDescLib/stats',
      { itemId },
    );
    expect(stats).toMatchObject({ totalCount: 2, tempCount: 1 });
    const exported = await as(limited).ok<string>('paramDescLib/export', { itemId, format: 'csv' });
    expect(exported).toContain('city');
    expect(exported).not.toContain('salary_band');

    // Moved into a catalog the member may read, the page's entry shows.
    await as(suite.owner).ok('page/save', {
      item_id: itemId,
      page_id: secret.page_id,
      page_title: secret.page_title,
      page_content: secret.page_content,
      cat_id: open,
    });
    await eventually(async () =>
      expect(await names(limited)).toEqual(['by_hand', 'city', 'salary_band']),
    );
  });
});
