/**
 * The API workbench's collections, named after ShowDoc's tables (RunApi side) so the ShowDoc
 * migration carries them over unchanged: `runapi_env`, `runapi_env_selectd` (ShowDoc's
 * spelling), `runapi_global_param`, `runapi_db_config`, `item_variable`, `runapi_flow`,
 * `runapi_flow_page` and `parameter_description_entry`. Field names and value kinds are ShowDoc's
 * (datetime strings for `addtime` except `item_variable`, whose `addtime` is a unix time).
 * Quire's additions: `item_variable.is_secret` (masked in the UI, blank for readers) and
 * `parameter_description_entry.source_page_id` (the page a learnt entry came from).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../platform';

type Fields = Record<string, { type: NumberConstructor | StringConstructor; default?: unknown }>;

const N = { type: Number, default: 0 };
const S = { type: String, default: '' };

function table<T>(name: string, collection: string, fields: Fields, indexes: object[]) {
  const schema = new Schema<T>({ id: { type: Number, required: true }, ...fields } as never, {
    collection,
    versionKey: false,
  });
  schema.index({ id: 1 }, { unique: true });
  for (const index of indexes) schema.index(index as never);
  return defineModel<T>(name, schema);
}

export interface RunapiEnvDoc {
  id: number;
  env_name: string;
  item_id: number;
  uid: number;
  addtime: string;
  last_update_time: string;
}
export const RunapiEnv = table<RunapiEnvDoc>(
  'RunapiEnv',
  'runapi_env',
  { env_name: S, item_id: N, uid: N, addtime: S, last_update_time: S },
  [{ item_id: 1, id: 1 }],
);

export interface RunapiEnvSelectdDoc {
  id: number;
  item_id: number;
  uid: number;
  env_id: number;
}
export const RunapiEnvSelectd = table<RunapiEnvSelectdDoc>(
  'RunapiEnvSelectd',
  'runapi_env_selectd',
  { item_id: N, uid: N, env_id: N },
  [{ item_id: 1, uid: 1 }, { env_id: 1 }],
);

export interface RunapiGlobalParamDoc {
  id: number;
  item_id: number;
  param_type: string;
  content_json_str: string;
  addtime: string;
  last_update_time: string;
}
export const RunapiGlobalParam = table<RunapiGlobalParamDoc>(
  'RunapiGlobalParam',
  'runapi_global_param',
  { item_id: N, param_type: S, content_json_str: S, addtime: S, last_update_time: S },
  [{ item_id: 1, param_type: 1 }],
);

export interface RunapiDbConfigDoc {
  id: number;
  item_id: number;
  env_id: number;
  config_name: string;
  db_type: string;
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
  options: string;
  is_default: number;
  uid: number;
  addtime: string;
  last_update_time: string;
}
export const RunapiDbConfig = table<RunapiDbConfigDoc>(
  'RunapiDbConfig',
  'runapi_db_config',
  {
    item_id: N,
    env_id: N,
    config_name: S,
    db_type: S,
    host: S,
    port: N,
    username: S,
    password: S,
    database: S,
    options: S,
    is_default: N,
    uid: N,
    addtime: S,
    last_update_time: S,
  },
  [{ item_id: 1, env_id: 1 }],
);

export interface ItemVariableDoc {
  id: number;
  var_name: string;
  var_value: string;
  uid: number;
  item_id: number;
  env_id: number;
  addtime: number;
  is_secret: number;
}
export const ItemVariable = table<ItemVariableDoc>(
  'ItemVariable',
  'item_variable',
  { var_name: S, var_value: S, uid: N, item_id: N, env_id: N, addtime: N, is_secret: N },
  [{ item_id: 1, env_id: 1, var_name: 1 }, { env_id: 1 }],
);

export interface RunapiFlowDoc {
  id: number;
  flow_name: string;
  uid: number;
  username: string;
  item_id: number;
  env_id: number;
  times: number;
  time_interval: number;
  error_continue: number;
  save_change: number;
  addtime: string;
  last_update_time: string;
}
export const RunapiFlow = table<RunapiFlowDoc>(
  'RunapiFlow',
  'runapi_flow',
  {
    flow_name: S,
    uid: N,
    username: S,
    item_id: N,
    env_id: N,
    times: N,
    time_interval: N,
    error_continue: N,
    save_change: N,
    addtime: S,
    last_update_time: S,
  },
  [{ item_id: 1, id: -1 }],
);

export interface RunapiFlowPageDoc {
  id: number;
  flow_id: number;
  page_id: number;
  s_number: number;
  addtime: string;
  enabled: number;
  /** Quire's: JSONPath extractions `[{"var": "token", "path": "$.data.token"}]` as JSON text. */
  extract: string;
}
export const RunapiFlowPage = table<RunapiFlowPageDoc>(
  'RunapiFlowPage',
  'runapi_flow_page',
  {
    flow_id: N,
    page_id: N,
    s_number: N,
    addtime: S,
    enabled: { type: Number, default: 1 },
    extract: S,
  },
  [{ flow_id: 1, s_number: 1 }],
);

/** ShowDoc's ids here are strings (`uniqid_rand`), not counters. */
export interface ParamDescEntryDoc {
  id: string;
  item_id: number;
  name: string;
  type: string;
  description: string;
  example: string;
  default_value: string;
  enum_values: string;
  aliases: string;
  tags: string;
  path: string;
  source: string;
  status: string;
  usage_count: number;
  quality_score: number;
  created_by: number;
  created_at: string;
  updated_at: string;
  /**
   * Quire's: the page a learnt entry came from (0: added by hand or imported), so members limited
   * to some catalogs are not shown what was learnt from pages they may not read.
   */
  source_page_id?: number;
}
const paramDescSchema = new Schema<ParamDescEntryDoc>(
  {
    id: { type: String, required: true },
    item_id: N,
    name: S,
    type: S,
    description: S,
    example: S,
    default_value: S,
    enum_values: S,
    aliases: S,
    tags: S,
    path: S,
    source: { type: String, default: 'manual' },
    status: { type: String, default: 'permanent' },
    usage_count: N,
    quality_score: N,
    created_by: N,
    created_at: S,
    updated_at: S,
    source_page_id: N,
  },
  { collection: 'parameter_description_entry', versionKey: false },
);
paramDescSchema.index({ id: 1 }, { unique: true });
// ShowDoc's uk_item_name_type.
paramDescSchema.index({ item_id: 1, name: 1, type: 1 }, { unique: true });
export const ParamDescEntry = defineModel<ParamDescEntryDoc>('ParamDescEntry', paramDescSchema);
