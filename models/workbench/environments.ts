/**
 * RunApi environments (`runapi/*`) and item variables (`itemVariable/*`), ShowDoc's rules:
 * environments, global parameters and database configs belong to an item; a variable belongs to
 * an item and an environment (env 0 = not bound yet); each user's selected environment is
 * remembered per item. Reads need the item's visit right, writes its edit right
 * (`workbench.read` / `workbench.edit`). Secret variables (Quire's `is_secret`) reach only
 * editors: a reader gets the name with an empty value, so the browser never holds it.
 */
import { requireAction, permits, type Actor } from '../access';
import { errors, formatNow, formatUnix, nextId, nowSeconds } from '../platform';
import {
  ItemVariable,
  RunapiDbConfig,
  RunapiEnv,
  RunapiEnvSelectd,
  RunapiGlobalParam,
  type ItemVariableDoc,
  type RunapiDbConfigDoc,
  type RunapiEnvDoc,
} from './schemas';

const NO_ID = { _id: 0 } as const;

function needLogin(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

async function canRead(actor: Actor, itemId: number) {
  needLogin(actor);
  return requireAction(actor, 'workbench.read', itemId);
}

async function canEdit(actor: Actor, itemId: number) {
  needLogin(actor);
  return requireAction(actor, 'workbench.edit', itemId);
}

/** Whether the actor may see secret values and write in the item (no refusal). */
export async function mayEditWorkbench(actor: Actor, itemId: number): Promise<boolean> {
  const access = await canRead(actor, itemId);
  return permits(access, 'workbench.edit');
}

async function envOrFail(envId: number): Promise<RunapiEnvDoc> {
  const env = envId > 0 ? await RunapiEnv.findOne({ id: envId }, NO_ID).lean() : null;
  if (!env) throw errors.failed('Environment not found');
  return env;
}

// ---------------------------------------------------------------- environments

export async function saveEnv(
  actor: Actor,
  input: { envId: number; envName: string; itemId: number },
): Promise<{ env_id: number }> {
  await canEdit(actor, input.itemId);
  const envName = input.envName.trim();
  if (!envName) throw errors.failed('The environment name cannot be empty');
  const now = formatNow();
  if (input.envId > 0) {
    const updated = await RunapiEnv.updateOne(
      { id: input.envId, item_id: input.itemId },
      { $set: { env_name: envName, uid: actor.uid, last_update_time: now } },
    );
    if (updated.matchedCount === 0) throw errors.internal('Operation failed');
    return { env_id: input.envId };
  }
  const id = await nextId('runapi_env_id');
  await RunapiEnv.create({
    id,
    env_name: envName,
    item_id: input.itemId,
    uid: actor.uid,
    addtime: now,
    last_update_time: now,
  });
  return { env_id: id };
}

/**
 * runapi/getEnvList. An item with no environment gets a default one (and its unbound variables
 * move into it), as ShowDoc does — only when the asker may write; a reader just sees none.
 */
export async function listEnvs(actor: Actor, itemId: number, defaultName: string) {
  const access = await canRead(actor, itemId);
  const rows = await RunapiEnv.find({ item_id: itemId }, NO_ID).sort({ id: 1 }).lean();
  if (rows.length > 0 || !permits(access, 'workbench.edit')) return rows;
  const { env_id } = await saveEnv(actor, { envId: 0, envName: defaultName, itemId });
  await ItemVariable.updateMany({ item_id: itemId, env_id: 0 }, { $set: { env_id } });
  return RunapiEnv.find({ item_id: itemId }, NO_ID).sort({ id: 1 }).lean();
}

export async function deleteEnv(actor: Actor, envId: number): Promise<[]> {
  needLogin(actor);
  const env = await envOrFail(envId);
  await canEdit(actor, env.item_id);
  await RunapiEnvSelectd.deleteMany({ env_id: envId });
  await RunapiEnv.deleteOne({ id: envId });
  await ItemVariable.deleteMany({ env_id: envId });
  await RunapiDbConfig.deleteMany({ env_id: envId });
  return [];
}

/** runapi/selectEnv: remembers the user's environment for the env's item. */
export async function selectEnv(actor: Actor, envId: number): Promise<{ id: number }> {
  needLogin(actor);
  const env = await envOrFail(envId);
  await canRead(actor, env.item_id);
  await RunapiEnvSelectd.deleteMany({ item_id: env.item_id, uid: actor.uid });
  const id = await nextId('runapi_env_selectd_id');
  await RunapiEnvSelectd.create({ id, item_id: env.item_id, uid: actor.uid, env_id: envId });
  return { id };
}

export async function selectedEnv(actor: Actor, itemId: number) {
  await canRead(actor, itemId);
  const row = await RunapiEnvSelectd.findOne({ item_id: itemId, uid: actor.uid }, NO_ID).lean();
  return row ?? { env_id: 0 };
}

// ---------------------------------------------------------------- global parameters

export const GLOBAL_PARAM_TYPES = ['query', 'body', 'header', 'cookies', 'preScript', 'postScript'];

export interface GlobalParams {
  query: unknown[];
  body: unknown[];
  header: unknown[];
  cookies: unknown[];
  preScript: string;
  postScript: string;
}

function decodeList(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The item's global parameters, ShowDoc's shape; empty ones when never saved. */
export async function readGlobalParams(itemId: number): Promise<GlobalParams> {
  const rows = await RunapiGlobalParam.find({ item_id: itemId }, NO_ID).lean();
  const of = (type: string) => rows.find((r) => r.param_type === type)?.content_json_str ?? '';
  return {
    query: decodeList(of('query')),
    body: decodeList(of('body')),
    header: decodeList(of('header')),
    cookies: decodeList(of('cookies')),
    preScript: of('preScript'),
    postScript: of('postScript'),
  };
}

export async function globalParams(actor: Actor, itemId: number): Promise<GlobalParams> {
  await canRead(actor, itemId);
  return readGlobalParams(itemId);
}

export async function updateGlobalParam(
  actor: Actor,
  input: { itemId: number; paramType: string; content: string },
): Promise<{ result: true }> {
  await canEdit(actor, input.itemId);
  if (!GLOBAL_PARAM_TYPES.includes(input.paramType))
    throw errors.failed(`param_type must be one of ${GLOBAL_PARAM_TYPES.join(', ')}`);
  const scripted = input.paramType === 'preScript' || input.paramType === 'postScript';
  if (!scripted && !Array.isArray(decodeJson(input.content)))
    throw errors.failed('content_json_str must be a JSON array');
  const now = formatNow();
  const updated = await RunapiGlobalParam.updateOne(
    { item_id: input.itemId, param_type: input.paramType },
    { $set: { content_json_str: input.content, last_update_time: now } },
  );
  if (updated.matchedCount === 0)
    await RunapiGlobalParam.create({
      id: await nextId('runapi_global_param_id'),
      item_id: input.itemId,
      param_type: input.paramType,
      content_json_str: input.content,
      addtime: now,
      last_update_time: now,
    });
  return { result: true };
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- database configs

const DB_TYPES = ['mysql', 'postgresql', 'sqlite'];

/** Passwords of database configs are an editor's: readers get them blank. */
export async function listDbConfigs(actor: Actor, itemId: number, envId: number) {
  const access = await canRead(actor, itemId);
  if (!(envId > 0)) throw errors.failed('env_id is missing');
  const rows = await RunapiDbConfig.find({ item_id: itemId, env_id: envId }, NO_ID)
    .sort({ id: 1 })
    .lean();
  const editor = permits(access, 'workbench.edit');
  return rows.map((row) => (editor ? row : { ...row, password: '' }));
}

export type DbConfigInput = Omit<
  RunapiDbConfigDoc,
  'id' | 'uid' | 'addtime' | 'last_update_time'
> & { configId: number };

export async function saveDbConfig(
  actor: Actor,
  input: DbConfigInput,
): Promise<{ config_id: number }> {
  await canEdit(actor, input.item_id);
  if (!(input.env_id > 0)) throw errors.failed('env_id is missing');
  if (!DB_TYPES.includes(input.db_type)) throw errors.failed('Unsupported database type');
  const { configId, ...fields } = input;
  const data = {
    ...fields,
    config_name: fields.config_name || 'default',
    is_default: fields.is_default ? 1 : 0,
    uid: actor.uid,
    last_update_time: formatNow(),
  };
  let id = configId;
  if (id > 0) {
    const row = await RunapiDbConfig.findOne({ id }, NO_ID).lean();
    if (!row || row.item_id !== input.item_id) throw errors.failed('Config not found');
    await RunapiDbConfig.updateOne({ id }, { $set: data });
  } else {
    id = await nextId('runapi_db_config_id');
    await RunapiDbConfig.create({ ...data, id, addtime: data.last_update_time });
  }
  if (data.is_default)
    await RunapiDbConfig.updateMany(
      { item_id: input.item_id, env_id: input.env_id, id: { $ne: id } },
      { $set: { is_default: 0 } },
    );
  return { config_id: id };
}

export async function deleteDbConfig(actor: Actor, configId: number): Promise<[]> {
  needLogin(actor);
  const row = configId > 0 ? await RunapiDbConfig.findOne({ id: configId }, NO_ID).lean() : null;
  if (!row) throw errors.failed('Config not found');
  await canEdit(actor, row.item_id);
  await RunapiDbConfig.deleteOne({ id: configId });
  return [];
}

// ---------------------------------------------------------------- item variables

export async function saveVariable(
  actor: Actor,
  input: { itemId: number; envId: number; name: string; value: string; secret?: boolean },
): Promise<number> {
  await canEdit(actor, input.itemId);
  const name = input.name.trim();
  if (!name) throw errors.failed('Save failed: the variable name is empty');
  const set: Partial<ItemVariableDoc> = { var_value: input.value.trim() };
  if (input.secret !== undefined) set.is_secret = input.secret ? 1 : 0;
  const existing = await ItemVariable.findOneAndUpdate(
    { item_id: input.itemId, env_id: input.envId, var_name: name },
    { $set: set },
    { lean: true },
  );
  if (existing) return existing.id;
  const id = await nextId('item_variable_id');
  await ItemVariable.create({
    id,
    item_id: input.itemId,
    env_id: input.envId,
    var_name: name,
    var_value: set.var_value,
    is_secret: set.is_secret ?? 0,
    uid: actor.uid,
    addtime: nowSeconds(),
  });
  return id;
}

/** Variables of the item (of one environment when envId > 0), oldest first. */
export async function readVariables(itemId: number, envId: number): Promise<ItemVariableDoc[]> {
  const filter = envId > 0 ? { item_id: itemId, env_id: envId } : { item_id: itemId };
  return ItemVariable.find(filter, NO_ID).sort({ addtime: 1, id: 1 }).lean();
}

export async function listVariables(actor: Actor, itemId: number, envId: number) {
  const access = await canRead(actor, itemId);
  const editor = permits(access, 'workbench.edit');
  const rows = await readVariables(itemId, envId);
  return rows.map((row) => ({
    ...row,
    var_value: row.is_secret && !editor ? '' : row.var_value,
    is_secret: row.is_secret ?? 0,
    addtime: formatUnix(row.addtime),
  }));
}

export async function deleteVariable(actor: Actor, itemId: number, id: number): Promise<true> {
  await canEdit(actor, itemId);
  const gone = id > 0 ? await ItemVariable.deleteOne({ item_id: itemId, id }) : null;
  if (!gone?.deletedCount) throw errors.failed('Delete failed');
  return true;
}

export async function deleteVariableByName(
  actor: Actor,
  input: { itemId: number; envId: number; name: string },
): Promise<true> {
  await canEdit(actor, input.itemId);
  if (!input.name) throw errors.failed('Delete failed');
  const filter: Record<string, unknown> = { item_id: input.itemId, var_name: input.name };
  if (input.envId > 0) filter.env_id = input.envId;
  const gone = await ItemVariable.deleteMany(filter);
  if (!gone.deletedCount) throw errors.failed('Delete failed');
  return true;
}
