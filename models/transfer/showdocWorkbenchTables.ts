/**
 * The API workbench's ShowDoc tables (RunApi environments, variables, global parameters, database
 * configs, flows, the parameter library), migrated like the others (showdocTables.ts): ids kept,
 * text as stored. ShowDoc HTML-escapes `content_json_str`; the workbench reads it decoded.
 */
import { unescapeFromClient } from '../pages';
import { int, text, type TableSpec } from './showdocTables';

const numbers = (r: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, int(r[n] as never)]));
const strings = (r: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, text(r[n] as never)]));

export const WORKBENCH_TABLES: TableSpec[] = [
  {
    table: 'runapi_env',
    model: 'RunapiEnv',
    idField: 'id',
    counter: 'runapi_env_id',
    uniqueFields: [],
    convert: (r) => ({
      ...numbers(r, ['id', 'item_id', 'uid']),
      ...strings(r, ['env_name', 'addtime', 'last_update_time']),
    }),
  },
  {
    table: 'runapi_env_selectd',
    model: 'RunapiEnvSelectd',
    idField: 'id',
    counter: 'runapi_env_selectd_id',
    uniqueFields: [],
    convert: (r) => numbers(r, ['id', 'item_id', 'uid', 'env_id']),
  },
  {
    table: 'runapi_global_param',
    model: 'RunapiGlobalParam',
    idField: 'id',
    counter: 'runapi_global_param_id',
    uniqueFields: [],
    uniqueTogether: [['item_id', 'param_type']],
    convert: (r) => ({
      ...numbers(r, ['id', 'item_id']),
      ...strings(r, ['param_type', 'addtime', 'last_update_time']),
      content_json_str: unescapeFromClient(text(r.content_json_str)),
    }),
  },
  {
    table: 'runapi_db_config',
    model: 'RunapiDbConfig',
    idField: 'id',
    counter: 'runapi_db_config_id',
    uniqueFields: [],
    convert: (r) => ({
      ...numbers(r, ['id', 'item_id', 'env_id', 'port', 'is_default', 'uid']),
      ...strings(r, [
        'config_name',
        'db_type',
        'host',
        'username',
        'password',
        'database',
        'options',
        'addtime',
        'last_update_time',
      ]),
    }),
  },
  {
    table: 'item_variable',
    model: 'ItemVariable',
    idField: 'id',
    counter: 'item_variable_id',
    uniqueFields: [],
    convert: (r) => ({
      ...numbers(r, ['id', 'item_id', 'env_id', 'uid', 'addtime']),
      ...strings(r, ['var_name', 'var_value']),
      is_secret: 0,
    }),
  },
  {
    table: 'runapi_flow',
    model: 'RunapiFlow',
    idField: 'id',
    counter: 'runapi_flow_id',
    uniqueFields: [],
    convert: (r) => ({
      ...numbers(r, [
        'id',
        'uid',
        'item_id',
        'env_id',
        'times',
        'time_interval',
        'error_continue',
        'save_change',
      ]),
      ...strings(r, ['flow_name', 'username', 'addtime', 'last_update_time']),
    }),
  },
  {
    table: 'runapi_flow_page',
    model: 'RunapiFlowPage',
    idField: 'id',
    counter: 'runapi_flow_page_id',
    uniqueFields: [],
    convert: (r) => ({
      ...numbers(r, ['id', 'flow_id', 'page_id', 's_number']),
      enabled: r.enabled === undefined || r.enabled === null ? 1 : int(r.enabled as never),
      addtime: text(r.addtime as never),
      extract: '',
    }),
  },
  {
    table: 'parameter_description_entry',
    model: 'ParamDescEntry',
    idField: 'id',
    // Its ids are strings (no counter moves); the name is only there to fit the spec.
    counter: 'parameter_description_entry_id',
    uniqueFields: [],
    uniqueTogether: [['item_id', 'name', 'type']],
    convert: (r) => ({
      ...strings(r, [
        'id',
        'name',
        'type',
        'description',
        'example',
        'default_value',
        'aliases',
        'tags',
        'path',
        'source',
        'status',
        'created_at',
        'updated_at',
      ]),
      ...numbers(r, ['item_id', 'usage_count', 'created_by']),
      enum_values: text(r.enum_values as never),
      quality_score: Number(r.quality_score) || 0,
    }),
  },
];
