/**
 * runapi/* over real HTTP against ShowDoc's answer shapes: environments (add/update/list with the
 * default one, delete taking its variables and selection along), the selected environment per
 * user, global parameters, database configs. Per action: anonymous → 10102, bad input → an
 * error envelope with nothing written, outsiders → 10303 (readers too, for writes), then success.
 */
import { describe, expect, test } from '@jest/globals';
import { ItemVariable, RunapiDbConfig, RunapiEnv } from '../../models/workbench/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';

const suite = apiSuite();
const { as } = suite;

/** A private item with `editor` (edit) and `reader` (read-only) as members. */
async function newItem(): Promise<number> {
  const { item_id } = await makeItem(suite.owner, { password: 'secret' });
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  return item_id;
}

describe('environments', () => {
  test('getEnvList makes a default environment and binds unbound variables to it', async () => {
    const itemId = await newItem();
    const varId = await as(suite.editor).ok<number>('itemVariable/save', {
      item_id: itemId,
      var_name: 'host',
      var_value: 'http://a.example',
    });
    // A reader sees none and creates none.
    expect(await as(suite.reader).ok('runapi/getEnvList', { item_id: itemId })).toEqual([]);
    const list = await as(suite.editor).ok<Record<string, unknown>[]>('runapi/getEnvList', {
      item_id: itemId,
    });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ env_name: 'Default', item_id: itemId, uid: suite.editor.uid });
    expect(list[0].addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const variable = await ItemVariable.findOne({ id: varId }).lean();
    expect(variable?.env_id).toBe(list[0].id);
  });

  test('addEnv creates, updates (updateEnv alias) and lists in id order', async () => {
    const itemId = await newItem();
    const a = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    const b = await as(suite.owner).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Prod',
    });
    expect(a.env_id).toBeGreaterThan(0);
    expect(
      await as(suite.editor).ok('runapi/updateEnv', {
        item_id: itemId,
        env_id: a.env_id,
        env_name: 'Development',
      }),
    ).toEqual({ env_id: a.env_id });
    const list = await as(suite.reader).ok<{ id: number; env_name: string }[]>(
      'runapi/getEnvList',
      {
        item_id: itemId,
      },
    );
    expect(list.map((e) => [e.id, e.env_name])).toEqual([
      [a.env_id, 'Development'],
      [b.env_id, 'Prod'],
    ]);
  });

  test('addEnv refuses: anonymous 10102, empty name 10101, reader/stranger 10303 — nothing written', async () => {
    const itemId = await newItem();
    expect(
      (await suite.server.api.fail('runapi/addEnv', { item_id: itemId, env_name: 'X' })).error_code,
    ).toBe(10102);
    expect(
      (await as(suite.editor).fail('runapi/addEnv', { item_id: itemId, env_name: ' ' })).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.editor).fail(
          'runapi/addEnv',
          { item_id: itemId, env_name: { $ne: 1 } as never },
          { json: true },
        )
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.reader).fail('runapi/addEnv', { item_id: itemId, env_name: 'X' })).error_code,
    ).toBe(10303);
    expect(
      (await as(suite.stranger).fail('runapi/addEnv', { item_id: itemId, env_name: 'X' }))
        .error_code,
    ).toBe(10303);
    expect(
      (await as(suite.stranger).fail('runapi/getEnvList', { item_id: itemId })).error_code,
    ).toBe(10303);
    expect((await suite.server.api.fail('runapi/getEnvList', { item_id: itemId })).error_code).toBe(
      10102,
    );
    expect(await RunapiEnv.countDocuments({ item_id: itemId })).toBe(0);
  });

  test('delEnv removes the environment, its variables, configs and selections; refusals change nothing', async () => {
    const itemId = await newItem();
    const { env_id } = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Gone',
    });
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id,
      var_name: 'a',
      var_value: '1',
    });
    await as(suite.editor).ok('runapi/selectEnv', { env_id });
    await as(suite.editor).ok('runapi/saveDbConfig', { item_id: itemId, env_id, host: 'db' });
    expect((await suite.server.api.fail('runapi/delEnv', { env_id })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('runapi/delEnv', { env_id: 0 })).error_code).toBe(10101);
    expect((await as(suite.reader).fail('runapi/delEnv', { env_id })).error_code).toBe(10303);
    expect((await as(suite.stranger).fail('runapi/delEnv', { env_id })).error_code).toBe(10303);
    expect(await RunapiEnv.countDocuments({ id: env_id })).toBe(1);
    expect(await as(suite.owner).ok('runapi/delEnv', { env_id })).toEqual([]);
    expect(await RunapiEnv.countDocuments({ id: env_id })).toBe(0);
    expect(await ItemVariable.countDocuments({ env_id })).toBe(0);
    expect(await RunapiDbConfig.countDocuments({ env_id })).toBe(0);
    expect(await as(suite.editor).ok('runapi/getSelectEnv', { item_id: itemId })).toEqual({
      env_id: 0,
    });
  });
});

describe('selected environment', () => {
  test('each user remembers their own; readers may select; strangers and anonymous may not', async () => {
    const itemId = await newItem();
    const dev = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    const prod = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Prod',
    });
    expect(await as(suite.editor).ok('runapi/getSelectEnv', { item_id: itemId })).toEqual({
      env_id: 0,
    });
    const picked = await as(suite.editor).ok<{ id: number }>('runapi/selectEnv', {
      env_id: dev.env_id,
    });
    expect(picked.id).toBeGreaterThan(0);
    await as(suite.editor).ok('runapi/selectEnv', { env_id: prod.env_id });
    await as(suite.reader).ok('runapi/selectEnv', { env_id: dev.env_id });
    expect(await as(suite.editor).ok('runapi/getSelectEnv', { item_id: itemId })).toMatchObject({
      item_id: itemId,
      uid: suite.editor.uid,
      env_id: prod.env_id,
    });
    expect(await as(suite.reader).ok('runapi/getSelectEnv', { item_id: itemId })).toMatchObject({
      env_id: dev.env_id,
    });
    expect(
      (await suite.server.api.fail('runapi/selectEnv', { env_id: dev.env_id })).error_code,
    ).toBe(10102);
    expect((await as(suite.editor).fail('runapi/selectEnv', { env_id: 999999 })).error_code).toBe(
      10101,
    );
    expect(
      (await as(suite.stranger).fail('runapi/selectEnv', { env_id: dev.env_id })).error_code,
    ).toBe(10303);
    expect(
      (await as(suite.stranger).fail('runapi/getSelectEnv', { item_id: itemId })).error_code,
    ).toBe(10303);
  });
});

describe('global parameters', () => {
  test('an item with none answers the six empty lists; updates are read back', async () => {
    const itemId = await newItem();
    expect(await as(suite.reader).ok('runapi/getGlobalParam', { item_id: itemId })).toEqual({
      query: [],
      body: [],
      header: [],
      cookies: [],
      preScript: '',
      postScript: '',
    });
    const header = [{ name: 'X-Token', value: '{{token}}' }];
    expect(
      await as(suite.editor).ok('runapi/updateGlobalParam', {
        item_id: itemId,
        param_type: 'header',
        content_json_str: JSON.stringify(header),
      }),
    ).toEqual({ result: true });
    await as(suite.editor).ok('runapi/updateGlobalParam', {
      item_id: itemId,
      param_type: 'preScript',
      content_json_str: 'x=1',
    });
    const read = await as(suite.editor).ok<Record<string, unknown>>('runapi/getGlobalParam', {
      item_id: itemId,
    });
    expect(read).toMatchObject({ header, preScript: 'x=1', query: [] });
  });

  test('refusals: anonymous, unknown type, not JSON, reader, stranger', async () => {
    const itemId = await newItem();
    const params = { item_id: itemId, param_type: 'query', content_json_str: '[]' };
    expect((await suite.server.api.fail('runapi/updateGlobalParam', params)).error_code).toBe(
      10102,
    );
    expect(
      (await as(suite.editor).fail('runapi/updateGlobalParam', { ...params, param_type: 'nope' }))
        .error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.editor).fail('runapi/updateGlobalParam', {
          ...params,
          content_json_str: '{oops',
        })
      ).error_code,
    ).toBe(10101);
    expect((await as(suite.reader).fail('runapi/updateGlobalParam', params)).error_code).toBe(
      10303,
    );
    expect(
      (await as(suite.stranger).fail('runapi/getGlobalParam', { item_id: itemId })).error_code,
    ).toBe(10303);
    expect(
      (await suite.server.api.fail('runapi/getGlobalParam', { item_id: itemId })).error_code,
    ).toBe(10102);
  });
});

describe('database configs', () => {
  test('save, update, one default per environment, list (password blank for readers), delete', async () => {
    const itemId = await newItem();
    const { env_id } = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    const first = await as(suite.editor).ok<{ config_id: number }>('runapi/saveDbConfig', {
      item_id: itemId,
      env_id,
      config_name: 'main',
      host: 'db.local',
      port: '3306',
      username: 'root',
      password: 'pw',
      database: 'app',
      is_default: 1,
    });
    const second = await as(suite.editor).ok<{ config_id: number }>('runapi/saveDbConfig', {
      item_id: itemId,
      env_id,
      db_type: 'postgresql',
      is_default: 1,
    });
    await as(suite.editor).ok('runapi/saveDbConfig', {
      item_id: itemId,
      env_id,
      config_id: first.config_id,
      config_name: 'renamed',
      password: 'pw2',
    });
    const list = await as(suite.editor).ok<Record<string, unknown>[]>('runapi/getDbConfigList', {
      item_id: itemId,
      env_id,
    });
    expect(list.map((c) => [c.id, c.config_name, c.is_default, c.password])).toEqual([
      [first.config_id, 'renamed', 0, 'pw2'],
      [second.config_id, 'default', 1, ''],
    ]);
    const asReader = await as(suite.reader).ok<Record<string, unknown>[]>(
      'runapi/getDbConfigList',
      { item_id: itemId, env_id },
    );
    expect(asReader[0].password).toBe('');
    expect(await as(suite.owner).ok('runapi/delDbConfig', { config_id: second.config_id })).toEqual(
      [],
    );
    expect(await RunapiDbConfig.countDocuments({ item_id: itemId })).toBe(1);
  });

  test('refusals: anonymous, missing env, bad type, foreign config, reader, stranger', async () => {
    const itemId = await newItem();
    const other = await newItem();
    const { env_id } = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    const { config_id } = await as(suite.editor).ok<{ config_id: number }>('runapi/saveDbConfig', {
      item_id: other,
      env_id,
    });
    const params = { item_id: itemId, env_id };
    expect((await suite.server.api.fail('runapi/saveDbConfig', params)).error_code).toBe(10102);
    expect(
      (await as(suite.editor).fail('runapi/saveDbConfig', { item_id: itemId })).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('runapi/saveDbConfig', { ...params, db_type: 'oracle' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('runapi/saveDbConfig', { ...params, config_id })).error_code,
    ).toBe(10101);
    expect((await as(suite.reader).fail('runapi/saveDbConfig', params)).error_code).toBe(10303);
    expect(
      (await as(suite.editor).fail('runapi/getDbConfigList', { item_id: itemId })).error_code,
    ).toBe(10101);
    expect((await as(suite.stranger).fail('runapi/getDbConfigList', params)).error_code).toBe(
      10303,
    );
    expect((await suite.server.api.fail('runapi/delDbConfig', { config_id })).error_code).toBe(
      10102,
    );
    expect((await as(suite.editor).fail('runapi/delDbConfig', { config_id: 0 })).error_code).toBe(
      10101,
    );
    expect((await as(suite.reader).fail('runapi/delDbConfig', { config_id })).error_code).toBe(
      10303,
    );
    expect(await RunapiDbConfig.countDocuments({ item_id: itemId })).toBe(0);
    expect(await RunapiDbConfig.countDocuments({ id: config_id })).toBe(1);
  });
});
