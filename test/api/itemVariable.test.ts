/**
 * itemVariable/* over real HTTP against ShowDoc's answers (`save` answers the id itself, `getList`
 * rows with `addtime` as a datetime, deletes answer `true`): per item and environment, saving a
 * name again updates it, and Quire's secret flag — a secret's value never reaches a read-only
 * member. Per action: anonymous → 10102, bad input → error with nothing written, outsiders and
 * (for writes) readers → 10303, then success.
 */
import { describe, expect, test } from '@jest/globals';
import { ItemVariable } from '../../models/workbench/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';

const suite = apiSuite();
const { as } = suite;

async function newItem(): Promise<number> {
  const { item_id } = await makeItem(suite.owner, { password: 'secret' });
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  return item_id;
}

interface Row {
  id: number;
  var_name: string;
  var_value: string;
  env_id: number;
  item_id: number;
  uid: number;
  is_secret: number;
  addtime: string;
}

describe('itemVariable/save and getList', () => {
  test('saves per environment, updates by name, lists oldest first with a datetime addtime', async () => {
    const itemId = await newItem();
    const id = await as(suite.editor).ok<number>('itemVariable/save', {
      item_id: itemId,
      env_id: 3,
      var_name: ' host ',
      var_value: 'http://a.example ',
    });
    expect(typeof id).toBe('number');
    const again = await as(suite.owner).ok<number>('itemVariable/save', {
      item_id: itemId,
      env_id: 3,
      var_name: 'host',
      var_value: 'http://b.example',
    });
    expect(again).toBe(id);
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: 4,
      var_name: 'host',
      var_value: 'http://c.example',
    });
    const env3 = await as(suite.editor).ok<Row[]>('itemVariable/getList', {
      item_id: itemId,
      env_id: 3,
    });
    expect(env3).toEqual([
      expect.objectContaining({
        id,
        var_name: 'host',
        var_value: 'http://b.example',
        env_id: 3,
        item_id: itemId,
        uid: suite.editor.uid,
        is_secret: 0,
        addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      }),
    ]);
    const all = await as(suite.reader).ok<Row[]>('itemVariable/getList', { item_id: itemId });
    expect(all.map((r) => [r.env_id, r.var_value])).toEqual([
      [3, 'http://b.example'],
      [4, 'http://c.example'],
    ]);
  });

  test('a secret variable: editors get its value, readers get it blank', async () => {
    const itemId = await newItem();
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: 1,
      var_name: 'token',
      var_value: 's3cr3t',
      is_secret: 1,
    });
    // Saving again without the flag keeps it.
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: 1,
      var_name: 'token',
      var_value: 's3cr3t-2',
    });
    const forEditor = await as(suite.editor).ok<Row[]>('itemVariable/getList', { item_id: itemId });
    expect(forEditor[0]).toMatchObject({ var_value: 's3cr3t-2', is_secret: 1 });
    const answer = await as(suite.reader).call('itemVariable/getList', { item_id: itemId });
    expect(JSON.stringify(answer.body)).not.toContain('s3cr3t');
    expect((answer.body.data as Row[])[0]).toMatchObject({
      var_name: 'token',
      var_value: '',
      is_secret: 1,
    });
  });

  test('refusals: anonymous 10102, empty name / bad flag 10101, reader and stranger 10303 — nothing written', async () => {
    const itemId = await newItem();
    const params = { item_id: itemId, env_id: 1, var_name: 'a', var_value: '1' };
    expect((await suite.server.api.fail('itemVariable/save', params)).error_code).toBe(10102);
    expect(
      (await as(suite.editor).fail('itemVariable/save', { ...params, var_name: '  ' })).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.editor).fail(
          'itemVariable/save',
          { ...params, is_secret: { a: 1 } as never },
          { json: true },
        )
      ).error_code,
    ).toBe(10101);
    expect((await as(suite.reader).fail('itemVariable/save', params)).error_code).toBe(10303);
    expect((await as(suite.stranger).fail('itemVariable/save', params)).error_code).toBe(10303);
    expect(
      (await suite.server.api.fail('itemVariable/getList', { item_id: itemId })).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.stranger).fail('itemVariable/getList', { item_id: itemId })).error_code,
    ).toBe(10303);
    expect((await as(suite.editor).fail('itemVariable/getList', { item_id: 0 })).error_code).toBe(
      10303,
    );
    expect(await ItemVariable.countDocuments({ item_id: itemId })).toBe(0);
  });
});

describe('itemVariable/delete and deleteByName', () => {
  test('delete by id answers true; deleteByName removes the name in one environment or in all', async () => {
    const itemId = await newItem();
    const save = (env: number, name: string) =>
      as(suite.editor).ok<number>('itemVariable/save', {
        item_id: itemId,
        env_id: env,
        var_name: name,
        var_value: 'v',
      });
    const a = await save(1, 'a');
    await save(1, 'b');
    await save(2, 'b');
    await save(3, 'c');
    await save(4, 'c');
    expect(await as(suite.editor).ok('itemVariable/delete', { item_id: itemId, id: a })).toBe(true);
    expect(
      await as(suite.editor).ok('itemVariable/deleteByName', {
        item_id: itemId,
        env_id: 1,
        var_name: 'b',
      }),
    ).toBe(true);
    expect(await ItemVariable.countDocuments({ item_id: itemId, var_name: 'b' })).toBe(1);
    expect(
      await as(suite.owner).ok('itemVariable/deleteByName', { item_id: itemId, var_name: 'c' }),
    ).toBe(true);
    expect(await ItemVariable.countDocuments({ item_id: itemId, var_name: 'c' })).toBe(0);
  });

  test('refusals: anonymous, unknown id or name, another item’s id, reader, stranger — nothing removed', async () => {
    const itemId = await newItem();
    const other = await newItem();
    const id = await as(suite.editor).ok<number>('itemVariable/save', {
      item_id: itemId,
      env_id: 1,
      var_name: 'a',
      var_value: '1',
    });
    expect(
      (await suite.server.api.fail('itemVariable/delete', { item_id: itemId, id })).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('itemVariable/delete', { item_id: itemId, id: 0 })).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('itemVariable/delete', { item_id: other, id })).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.reader).fail('itemVariable/delete', { item_id: itemId, id })).error_code,
    ).toBe(10303);
    expect(
      (await as(suite.stranger).fail('itemVariable/delete', { item_id: itemId, id })).error_code,
    ).toBe(10303);
    const byName = { item_id: itemId, env_id: 1, var_name: 'a' };
    expect((await suite.server.api.fail('itemVariable/deleteByName', byName)).error_code).toBe(
      10102,
    );
    expect(
      (await as(suite.editor).fail('itemVariable/deleteByName', { ...byName, var_name: 'zz' }))
        .error_code,
    ).toBe(10101);
    expect((await as(suite.reader).fail('itemVariable/deleteByName', byName)).error_code).toBe(
      10303,
    );
    expect((await as(suite.stranger).fail('itemVariable/deleteByName', byName)).error_code).toBe(
      10303,
    );
    expect(await ItemVariable.countDocuments({ id })).toBe(1);
  });
});
