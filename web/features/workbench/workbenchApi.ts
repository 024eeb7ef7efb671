/**
 * The API workbench's calls (ShowDoc's RunApi side): environments and the selected one, item
 * variables, global parameters, test flows and their runs, the parameter library's suggestions.
 * Shapes are the declared contract's (api/contracts/workbench.ts), imported type-only.
 */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';
import type { Menu, MenuCatalog } from '../reader/types';

export type Env = Output<'runapi', 'getEnvList'>[number];
export type Variable = Output<'itemvariable', 'getList'>[number];
export type GlobalParams = Output<'runapi', 'getGlobalParam'>;
export type Flow = Output<'flow', 'getList'>[number];
export type FlowStep = Output<'flow', 'getFlowPageList'>[number];
export type FlowRun = Output<'flow', 'run'>;
export type LibraryEntry = Output<'paramdesclib', 'getEntries'>['data'][number];

const quiet = { alert: false } as const;

export const listEnvs = (itemId: number) =>
  request<Env[]>('runapi/getEnvList', { item_id: itemId }, quiet);
export const addEnv = (itemId: number, envName: string) =>
  request<{ env_id: number }>('runapi/addEnv', { item_id: itemId, env_name: envName });
export const deleteEnv = (envId: number) => request('runapi/delEnv', { env_id: envId });
export const selectEnv = (envId: number) =>
  request<{ id: number }>('runapi/selectEnv', { env_id: envId }, quiet);
export const selectedEnv = (itemId: number) =>
  request<{ env_id: number }>('runapi/getSelectEnv', { item_id: itemId }, quiet).then(
    (row) => Number(row.env_id) || 0,
  );
export const globalParams = (itemId: number) =>
  request<GlobalParams>('runapi/getGlobalParam', { item_id: itemId }, quiet);

export const listVariables = (itemId: number) =>
  request<Variable[]>('itemVariable/getList', { item_id: itemId }, quiet);
export const saveVariable = (
  itemId: number,
  envId: number,
  name: string,
  value: string,
  secret: boolean,
) =>
  request<number>('itemVariable/save', {
    item_id: itemId,
    env_id: envId,
    var_name: name,
    var_value: value,
    is_secret: secret ? 1 : 0,
  });
export const deleteVariable = (itemId: number, id: number) =>
  request('itemVariable/delete', { item_id: itemId, id });

export const listFlows = (itemId: number) =>
  request<Flow[]>('flow/getList', { item_id: itemId }, quiet);
export const saveFlow = (params: Record<string, string | number>) =>
  request<Flow>('flow/save', params);
export const deleteFlow = (id: number) => request('flow/delete', { id });
export const flowSteps = (flowId: number) =>
  request<FlowStep[]>('flow/getFlowPageList', { flow_id: flowId }, quiet);
export const addFlowStep = (flowId: number, pageId: number) =>
  request<{ id: number }>('flow/addFlowPage', { flow_id: flowId, page_id: pageId });
export const deleteFlowStep = (id: number) => request('flow/deleteFlowPage', { id });
export const sortFlowSteps = (flowId: number, order: number[]) =>
  request('flow/saveSort', {
    flow_id: flowId,
    orders: JSON.stringify(order.map((id, index) => ({ id, s_number: index + 1 }))),
  });
export const enableFlowSteps = (flowId: number, ids: number[]) =>
  request('flow/setFlowPageEnabled', { flow_id: flowId, ids: JSON.stringify(ids) });
export const setStepExtract = (id: number, rules: { var: string; path: string }[]) =>
  request('flow/setFlowPageExtract', { id, extract: JSON.stringify(rules) });
export const runFlow = (flowId: number, envId: number, runId: string) =>
  // A run may take a while (rounds and intervals): the server bounds each step, not the whole.
  request<FlowRun>(
    'flow/run',
    { flow_id: flowId, env_id: envId, run_id: runId },
    { timeoutMs: 10 * 60_000 },
  );

/** Library entries whose name starts with (or contains) what was typed, best first. */
export const suggestEntries = (itemId: number, keyword: string) =>
  request<{ data: LibraryEntry[] }>(
    'paramDescLib/getEntries',
    { itemId, keyword, pageSize: 8 },
    quiet,
  ).then((page) => page.data);
export const countUsage = (id: string) => request('paramDescLib/updateUsage', { id }, quiet);

/** The item's pages (id and title) in reading order, for building a flow. */
export async function itemPages(itemId: number): Promise<{ page_id: number; title: string }[]> {
  const info = await request<{ menu?: Menu }>('item/info', { item_id: itemId }, quiet);
  const out: { page_id: number; title: string }[] = [];
  const menu = info.menu;
  if (!menu || Array.isArray(menu)) return out;
  const add = (pages: Menu['pages']) => {
    for (const p of pages) out.push({ page_id: Number(p.page_id), title: p.page_title });
  };
  const visit = (cats: MenuCatalog[]) => {
    for (const cat of cats) {
      add(cat.pages);
      visit(cat.catalogs ?? []);
    }
  };
  add(menu.pages);
  visit(menu.catalogs);
  return out;
}

export const libraryEntries = (itemId: number) =>
  request<{ data: LibraryEntry[]; total: number }>(
    'paramDescLib/getEntries',
    { itemId, pageSize: 500 },
    quiet,
  ).then((page) => page.data);
export const promoteEntries = (ids: string[]) =>
  request<{ promoted: number }>('paramDescLib/promoteTemp', { ids: ids.join(',') });
export const deleteEntry = (id: string) => request('paramDescLib/deleteEntry', { id });
export const previewImport = (itemId: number, format: string, rawText: string) =>
  request<{ new: (LibraryEntry & { itemId: number })[]; duplicated: LibraryEntry[] }>(
    'paramDescLib/import',
    { itemId, format, rawText },
  );
export const confirmImport = (entries: unknown[]) =>
  request<LibraryEntry[]>('paramDescLib/confirmImport', { entries: JSON.stringify(entries) });
export const exportLibrary = (itemId: number, format: 'json' | 'csv') =>
  request<string>('paramDescLib/export', { itemId, format });
