/**
 * Test flows (`flow/*`): a flow is an ordered list of an item's API pages (`runapi_flow_page`,
 * ordered by `s_number`, each enabled or not) run against one environment `times` times with
 * `time_interval` seconds between rounds. ShowDoc's rules: the flow's item decides, reads need
 * its visit right here (ShowDoc: edit), writes its edit right; a page joins a flow only from an
 * item the actor may edit. Running a flow is models/workbench/flowRunner.ts.
 */
import { requireAction, type Actor } from '../access';
import { pageVisible, requirePage } from '../pages';
import { Page } from '../pages';
import { errors, formatNow, nextId } from '../platform';
import { RunapiEnv, RunapiFlow, RunapiFlowPage, type RunapiFlowDoc } from './schemas';

const NO_ID = { _id: 0 } as const;

function needLogin(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

export async function flowOrFail(id: number): Promise<RunapiFlowDoc> {
  const flow = id > 0 ? await RunapiFlow.findOne({ id }, NO_ID).lean() : null;
  if (!flow) throw errors.failed('Flow not found');
  return flow;
}

export interface FlowSettings {
  flow_name?: string;
  env_id?: number;
  times?: number;
  time_interval?: number;
  error_continue?: number;
  save_change?: number;
}

/** Runs are bounded: a flow is a test, not a load generator. */
export const FLOW_LIMITS = { maxTimes: 100, maxIntervalSeconds: 3600 } as const;

function bounded(settings: FlowSettings): FlowSettings {
  const out = { ...settings };
  if (out.times !== undefined) out.times = Math.min(Math.max(out.times, 1), FLOW_LIMITS.maxTimes);
  if (out.time_interval !== undefined)
    out.time_interval = Math.min(Math.max(out.time_interval, 0), FLOW_LIMITS.maxIntervalSeconds);
  return out;
}

/** flow/save: creates (item_id) or updates (id) a flow; only the settings sent change. */
export async function saveFlow(
  actor: Actor,
  input: { id: number; itemId: number; settings: FlowSettings },
): Promise<RunapiFlowDoc> {
  needLogin(actor);
  const now = formatNow();
  const settings = bounded(input.settings);
  if (input.id > 0) {
    const flow = await flowOrFail(input.id);
    await requireAction(actor, 'workbench.edit', flow.item_id);
    const changes: FlowSettings & { last_update_time: string } = {
      ...settings,
      last_update_time: now,
    };
    if (!changes.flow_name) delete changes.flow_name;
    await RunapiFlow.updateOne({ id: input.id }, { $set: changes });
    return flowOrFail(input.id);
  }
  if (!(input.itemId > 0)) throw errors.failed('item_id is missing');
  await requireAction(actor, 'workbench.edit', input.itemId);
  let envId = settings.env_id ?? 0;
  if (envId <= 0) {
    const first = await RunapiEnv.findOne({ item_id: input.itemId }, NO_ID).sort({ id: 1 }).lean();
    envId = first?.id ?? 0;
  }
  const id = await nextId('runapi_flow_id');
  await RunapiFlow.create({
    id,
    uid: actor.uid,
    username: actor.username,
    flow_name: settings.flow_name ?? '',
    item_id: input.itemId,
    env_id: envId,
    times: settings.times ?? 1,
    time_interval: settings.time_interval ?? 0,
    error_continue: settings.error_continue ?? 1,
    save_change: settings.save_change ?? 1,
    addtime: now,
    last_update_time: now,
  });
  return flowOrFail(id);
}

export async function listFlows(actor: Actor, itemId: number): Promise<RunapiFlowDoc[]> {
  needLogin(actor);
  if (!(itemId > 0)) throw errors.failed('item_id is missing');
  await requireAction(actor, 'workbench.read', itemId);
  return RunapiFlow.find({ item_id: itemId }, NO_ID).sort({ id: -1 }).lean();
}

export async function deleteFlow(actor: Actor, id: number): Promise<{ success: true }> {
  needLogin(actor);
  if (!(id > 0)) throw errors.failed('id is missing');
  const flow = await flowOrFail(id);
  await requireAction(actor, 'workbench.edit', flow.item_id);
  await RunapiFlow.deleteOne({ id });
  await RunapiFlowPage.deleteMany({ flow_id: id });
  return { success: true };
}

async function livePageItem(pageId: number): Promise<number> {
  const page = await Page.findOne({ page_id: pageId, is_del: 0 }, { item_id: 1, _id: 0 }).lean();
  if (!page) throw errors.failed('Page not found');
  return page.item_id;
}

export async function addFlowPage(
  actor: Actor,
  flowId: number,
  pageId: number,
): Promise<{ id: number }> {
  needLogin(actor);
  if (!(flowId > 0) || !(pageId > 0)) throw errors.failed('Parameter error');
  const flow = await flowOrFail(flowId);
  await requireAction(actor, 'workbench.edit', flow.item_id);
  // The page's own rules too: a member limited to some catalogs adds only pages they can see.
  await requirePage(actor, pageId, {
    action: 'workbench.edit',
  });
  const last = await RunapiFlowPage.findOne({ flow_id: flowId }, NO_ID)
    .sort({ s_number: -1 })
    .lean();
  const id = await nextId('runapi_flow_page_id');
  await RunapiFlowPage.create({
    id,
    flow_id: flowId,
    page_id: pageId,
    s_number: (last?.s_number ?? 0) + 1,
    addtime: formatNow(),
    enabled: 1,
  });
  return { id };
}

export async function deleteFlowPage(actor: Actor, id: number): Promise<{ success: true }> {
  needLogin(actor);
  if (!(id > 0)) throw errors.failed('Parameter error');
  const row = await RunapiFlowPage.findOne({ id }, NO_ID).lean();
  if (!row) throw errors.failed('Flow page not found');
  const flow = await RunapiFlow.findOne({ id: row.flow_id }, NO_ID).lean();
  // The flow's item decides; a row whose flow is gone falls back to its page's item (ShowDoc's).
  await requireAction(actor, 'workbench.edit', flow?.item_id ?? (await livePageItem(row.page_id)));
  await RunapiFlowPage.deleteOne({ id });
  return { success: true };
}

export async function listFlowPages(actor: Actor, flowId: number) {
  needLogin(actor);
  if (!(flowId > 0)) throw errors.failed('flow_id is missing');
  const flow = await flowOrFail(flowId);
  const access = await requireAction(actor, 'workbench.read', flow.item_id);
  const rows = await RunapiFlowPage.find({ flow_id: flowId }, NO_ID).sort({ s_number: 1 }).lean();
  const pages = await Page.find(
    { page_id: { $in: rows.map((r) => r.page_id) }, item_id: flow.item_id, is_del: 0 },
    NO_ID,
  ).lean();
  // Titles of pages the actor may not see (other catalogs, others' drafts) stay hidden.
  const titles = new Map<number, string>();
  for (const page of pages)
    if (await pageVisible(actor, access, page)) titles.set(page.page_id, page.page_title);
  return rows.map((row) => ({ ...row, page_title: titles.get(row.page_id) ?? false }));
}

function decodeArray(text: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export async function saveFlowSort(actor: Actor, flowId: number, orders: string): Promise<[]> {
  needLogin(actor);
  if (!(flowId > 0) || !orders) throw errors.failed('Parameter error');
  const flow = await flowOrFail(flowId);
  await requireAction(actor, 'workbench.edit', flow.item_id);
  const list = decodeArray(orders);
  if (!list) throw errors.failed('orders must be a JSON array');
  for (const entry of list) {
    const { id, s_number } = (entry ?? {}) as { id?: unknown; s_number?: unknown };
    if (Number(id) > 0)
      await RunapiFlowPage.updateOne(
        { flow_id: flowId, id: Number(id) },
        { $set: { s_number: Number(s_number) || 0 } },
      );
  }
  return [];
}

export async function setFlowPagesEnabled(actor: Actor, flowId: number, ids: string): Promise<[]> {
  needLogin(actor);
  if (!(flowId > 0) || !ids) throw errors.failed('Parameter error');
  const flow = await flowOrFail(flowId);
  await requireAction(actor, 'workbench.edit', flow.item_id);
  const list = decodeArray(ids);
  if (!list) throw errors.failed('ids must be a JSON array');
  const enabled = list.map(Number).filter((id) => id > 0);
  await RunapiFlowPage.updateMany({ flow_id: flowId }, { $set: { enabled: 0 } });
  await RunapiFlowPage.updateMany(
    { flow_id: flowId, id: { $in: enabled } },
    { $set: { enabled: 1 } },
  );
  return [];
}

/** Quire's: the JSONPath extractions of one step (`[{"var","path"}]`). */
export async function setFlowPageExtract(actor: Actor, id: number, extract: string): Promise<[]> {
  needLogin(actor);
  const row = id > 0 ? await RunapiFlowPage.findOne({ id }, NO_ID).lean() : null;
  if (!row) throw errors.failed('Flow page not found');
  const flow = await flowOrFail(row.flow_id);
  await requireAction(actor, 'workbench.edit', flow.item_id);
  const list = decodeArray(extract || '[]');
  const valid = list?.every((e) => {
    const { var: name, path } = (e ?? {}) as { var?: unknown; path?: unknown };
    return typeof name === 'string' && name.trim() !== '' && typeof path === 'string';
  });
  if (!list || !valid) throw errors.failed('extract must be a JSON array of {var, path}');
  await RunapiFlowPage.updateOne({ id }, { $set: { extract: JSON.stringify(list) } });
  return [];
}
