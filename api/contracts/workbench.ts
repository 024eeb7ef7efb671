/**
 * The API workbench's controllers (ShowDoc's RunApi side): `runapi`, `itemVariable`, `flow`,
 * `paramDescLib` and `ping`. Parameter names are ShowDoc's (paramDescLib's are camelCase there).
 */
import { z } from 'zod';
import { action, int, list, nothing, raw, str } from './coerce';

const Env = z.looseObject({ id: z.number(), env_name: z.string(), item_id: z.number() });
const Variable = z.looseObject({
  id: z.number(),
  var_name: z.string(),
  var_value: z.string(),
  env_id: z.number(),
  is_secret: z.number(),
  addtime: z.string(),
});
const DbConfig = z.looseObject({ id: z.number(), config_name: z.string(), db_type: z.string() });
const Flow = z.looseObject({
  id: z.number(),
  flow_name: z.string(),
  item_id: z.number(),
  env_id: z.number(),
  times: z.number(),
  time_interval: z.number(),
  error_continue: z.number(),
  save_change: z.number(),
});
const FlowPage = z.looseObject({
  id: z.number(),
  flow_id: z.number(),
  page_id: z.number(),
  s_number: z.number(),
  enabled: z.number(),
  page_title: z.union([z.string(), z.literal(false)]),
});
const Entry = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  itemId: z.number(),
  usageCount: z.number(),
  qualityScore: z.number(),
  aliases: z.array(z.unknown()),
  tags: z.array(z.unknown()),
  enumValues: z.array(z.unknown()),
});
const FlowStep = z.looseObject({
  round: z.number(),
  page_id: z.number(),
  pass: z.boolean(),
  duration_ms: z.number(),
});

export const runapiContract = {
  addEnv: action(
    { env_id: int(), env_name: str(), item_id: int() },
    z.object({ env_id: z.number() }),
  ),
  updateEnv: action(
    { env_id: int(), env_name: str(), item_id: int() },
    z.object({ env_id: z.number() }),
  ),
  getEnvList: action({ item_id: int() }, z.array(Env)),
  delEnv: action({ env_id: int() }, nothing),
  selectEnv: action({ env_id: int() }, z.object({ id: z.number() })),
  getSelectEnv: action({ item_id: int() }, z.looseObject({ env_id: z.number() })),
  getGlobalParam: action(
    { item_id: int() },
    z.object({
      query: z.array(z.unknown()),
      body: z.array(z.unknown()),
      header: z.array(z.unknown()),
      cookies: z.array(z.unknown()),
      preScript: z.string(),
      postScript: z.string(),
    }),
  ),
  updateGlobalParam: action(
    { item_id: int(), param_type: str(), content_json_str: str() },
    z.object({ result: z.literal(true) }),
  ),
  getDbConfigList: action({ item_id: int(), env_id: int() }, z.array(DbConfig)),
  saveDbConfig: action(
    {
      config_id: int(),
      item_id: int(),
      env_id: int(),
      config_name: str('default'),
      db_type: str('mysql'),
      host: str(),
      port: int(),
      username: str(),
      password: str(),
      database: str(),
      options: str(),
      is_default: int(),
    },
    z.object({ config_id: z.number() }),
  ),
  delDbConfig: action({ config_id: int() }, nothing),
};

export const itemVariableContract = {
  save: action(
    {
      item_id: int(),
      env_id: int(),
      var_name: str(),
      var_value: str(),
      // Quire's: absent leaves the flag as it was.
      is_secret: z.unknown().optional(),
    },
    z.number(),
  ),
  getList: action({ item_id: int(), env_id: int() }, z.array(Variable)),
  delete: action({ item_id: int(), id: int() }, z.literal(true)),
  deleteByName: action({ item_id: int(), env_id: int(), var_name: str() }, z.literal(true)),
};

const flowSettings = {
  flow_name: str(),
  env_id: raw(),
  times: raw(),
  time_interval: raw(),
  error_continue: raw(),
  save_change: raw(),
};

export const flowContract = {
  save: action({ id: int(), item_id: int(), ...flowSettings }, Flow),
  getList: action({ item_id: int() }, z.array(Flow)),
  delete: action({ id: int() }, z.object({ success: z.literal(true) })),
  addFlowPage: action({ flow_id: int(), page_id: int() }, z.object({ id: z.number() })),
  deleteFlowPage: action({ id: int() }, z.object({ success: z.literal(true) })),
  getFlowPageList: action({ flow_id: int() }, z.array(FlowPage)),
  saveSort: action({ flow_id: int(), orders: str() }, nothing),
  setFlowPageEnabled: action({ flow_id: int(), ids: str() }, nothing),
  /** Quire's: a step's JSONPath extractions, `[{"var":"token","path":"$.data.token"}]`. */
  setFlowPageExtract: action({ id: int(), extract: str('[]') }, nothing),
  /** Quire's: runs the flow on the server (through the HTTP relay's address policy). */
  run: action(
    { flow_id: int(), env_id: int(), run_id: str() },
    z.looseObject({
      flow_id: z.number(),
      run_id: z.string(),
      passed: z.number(),
      failed: z.number(),
      stopped: z.boolean(),
      steps: z.array(FlowStep),
      variables: z.record(z.string(), z.string()),
      /** Pages whose response example the run wrote (`save_change`). */
      saved_pages: z.array(z.number()),
    }),
  ),
};

const entryFields = {
  name: raw(),
  type: raw(),
  description: raw(),
  example: raw(),
  defaultValue: raw(),
  enumValues: raw(),
  aliases: raw(),
  tags: raw(),
  path: raw(),
  source: raw(),
  status: raw(),
};

export const paramDescLibContract = {
  getEntries: action(
    {
      itemId: int(),
      keyword: str(),
      status: str(),
      name: str(),
      type: str(),
      tag: str(),
      page: int(1),
      pageSize: int(20),
    },
    z.object({ data: z.array(Entry), total: z.number(), page: z.number(), pageSize: z.number() }),
  ),
  addEntry: action({ itemId: int(), ...entryFields }, Entry),
  addTempEntry: action({ itemId: int(), ...entryFields }, Entry),
  temp: action({ itemId: int(), ...entryFields }, Entry),
  updateEntry: action({ id: str(), ...entryFields }, Entry),
  deleteEntry: action({ id: str() }, z.object({ deleted: z.number() })),
  deleteEntries: action({ ids: list() }, z.object({ deleted: z.number() })),
  promoteTemp: action({ ids: list() }, z.object({ promoted: z.number() })),
  addBatchEntries: action({ entries: raw() }, z.array(Entry)),
  confirmImport: action({ entries: raw() }, z.array(Entry)),
  batchSave: action({ itemId: int(), entries: raw() }, z.array(Entry)),
  updateUsage: action(
    { id: str(), ids: list() },
    z.looseObject({ updated: z.number(), notFound: z.array(z.string()).optional() }),
  ),
  stats: action(
    { itemId: int() },
    z.object({
      totalCount: z.number(),
      permanentCount: z.number(),
      tempCount: z.number(),
      coverageRate: z.number(),
      hitRate: z.number(),
      topFields: z.array(z.object({ name: z.string(), count: z.number() })),
    }),
  ),
  import: action(
    { itemId: int(), format: str(), rawText: str() },
    z.object({ new: z.array(z.looseObject({})), duplicated: z.array(z.looseObject({})) }),
  ),
  export: action({ itemId: int(), format: str('json') }, z.string()),
};

export const pingContract = {
  index: action({}, z.object({ pong: z.literal(true), time: z.string() })),
};
