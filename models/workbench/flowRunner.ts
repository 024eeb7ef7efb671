/**
 * Runs a test flow on the server (Quire's `flow/run`): the flow's enabled steps in order, `times`
 * rounds `time_interval` seconds apart, each step's RunApi page turned into a request with
 * `{{name}}` filled in from the variables (the environment's, then values extracted by earlier
 * steps) and the item's global parameters added, sent through the HTTP test relay — so the
 * relay's address policy, limits and throttle apply to every step (a private address only when
 * the admin's allow-list names it). A step passes on a 2xx answer whose extractions all matched;
 * a failure stops the run unless the flow continues on error. Every step's outcome is published
 * as `flow.progress` (pushed to everyone watching the item, without request or answer contents).
 * With the flow's `save_change`, each page's last passing answer becomes its response example.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { requireAction, type Actor } from '../access';
import { relayHttpRequest, type RelayAnswer } from '../assistants';
import { findLivePage, Page, pageVisible, savePage } from '../pages';
import { errors, events, isApiError, type AddressPolicy } from '../platform';
import { readGlobalParams, readVariables, type GlobalParams } from './environments';
import { flowOrFail } from './flows';
import { withResponseExample } from './pageExamples';
import { RunapiFlowPage } from './schemas';
import { substitute, stepRequest, type Extraction } from './stepRequest';

/** What a run answers keeps at most this much of each answer's body. */
const MAX_KEPT_BODY = 64 * 1024;

export interface FlowStepResult {
  round: number;
  flow_page_id: number;
  page_id: number;
  page_title: string;
  method: string;
  url: string;
  request_headers: [string, string][];
  request_body: string;
  status: number;
  response_headers: [string, string][];
  response_body: string;
  duration_ms: number;
  pass: boolean;
  error: string;
  extracted: Record<string, string>;
}

export interface FlowRunResult {
  flow_id: number;
  run_id: string;
  env_id: number;
  passed: number;
  failed: number;
  stopped: boolean;
  steps: FlowStepResult[];
  variables: Record<string, string>;
  /** Pages whose response example this run wrote (the flow's `save_change`). */
  saved_pages: number[];
}

async function extract(
  body: string,
  rules: Extraction[],
): Promise<{ values: Record<string, string>; missing: string[] }> {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  if (rules.length === 0) return { values, missing };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { values, missing: rules.map((r) => r.var) };
  }
  // Loaded on the first extraction: a serving process that never runs a flow never needs it.
  const { JSONPath } = await import('jsonpath-plus');
  for (const rule of rules) {
    let found: unknown[];
    try {
      found = JSONPath({
        path: rule.path,
        json: json as object,
        wrap: true,
        eval: false,
      }) as unknown[];
    } catch {
      found = [];
    }
    if (found.length === 0 || found[0] === undefined) missing.push(rule.var);
    else values[rule.var] = typeof found[0] === 'string' ? found[0] : JSON.stringify(found[0]);
  }
  return { values, missing };
}

function parseRules(text: string): Extraction[] {
  try {
    const list: unknown = JSON.parse(text || '[]');
    return Array.isArray(list)
      ? list.filter(
          (r): r is Extraction =>
            !!r && typeof r.var === 'string' && r.var !== '' && typeof r.path === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * `save_change`: each page's last answer (of the steps that passed) becomes its response example,
 * written through savePage as the runner — so its rights decide (edit, catalog restriction,
 * archive) and history, change log, events and open editors follow. The page is read again just
 * before: an edit made while the run went on is kept. Pages a save refuses are skipped.
 */
async function saveExamples(
  actor: Actor,
  itemId: number,
  steps: FlowStepResult[],
): Promise<number[]> {
  const last = new Map<number, FlowStepResult>();
  for (const step of steps) if (step.status > 0) last.set(step.page_id, step);
  const saved: number[] = [];
  for (const [pageId, step] of last) {
    // A cut answer (over the kept 64 KB) would be a broken example.
    if (!step.pass || step.response_body.length >= MAX_KEPT_BODY) continue;
    const page = await findLivePage(pageId);
    if (!page || page.item_id !== itemId) continue;
    const content = withResponseExample(page.page_content, step.response_body);
    if (content === null || content === page.page_content) continue;
    try {
      await savePage(
        actor,
        { pageId, itemId, title: page.page_title, content },
        { origin: 'rest' },
      );
      saved.push(pageId);
    } catch (error) {
      if (!isApiError(error)) throw error;
    }
  }
  return saved;
}

export interface RunFlowInput {
  flowId: number;
  /** 0 = the flow's own environment. */
  envId: number;
  /** The client's id for this run (progress events carry it). */
  runId: string;
}

export async function runFlow(
  actor: Actor,
  input: RunFlowInput,
  policy: AddressPolicy,
): Promise<FlowRunResult> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(input.flowId > 0)) throw errors.failed('flow_id is missing');
  const flow = await flowOrFail(input.flowId);
  const itemId = flow.item_id;
  const access = await requireAction(actor, 'workbench.edit', itemId);
  const envId = input.envId > 0 ? input.envId : flow.env_id;
  const rows = await RunapiFlowPage.find({ flow_id: flow.id, enabled: 1 }, { _id: 0 })
    .sort({ s_number: 1, id: 1 })
    .lean();
  if (rows.length === 0) throw errors.failed('The flow has no enabled step');
  const pages = await Page.find(
    { page_id: { $in: rows.map((r) => r.page_id) }, item_id: itemId, is_del: 0 },
    { _id: 0 },
  ).lean();
  // Only pages the actor may read (a catalog restriction, others' drafts) are sent.
  const byId = new Map<number, (typeof pages)[number]>();
  for (const page of pages)
    if (await pageVisible(actor, access, page)) byId.set(page.page_id, page);
  // Unbound variables (env 0) first, the environment's own override them.
  const variables: Record<string, string> = {};
  const all = await readVariables(itemId, 0);
  for (const v of all) if (v.env_id === 0) variables[v.var_name] = v.var_value;
  for (const v of all) if (v.env_id === envId && envId > 0) variables[v.var_name] = v.var_value;
  const globals: GlobalParams = await readGlobalParams(itemId);

  const times = Math.max(flow.times, 1);
  const total = times * rows.length;
  const result: FlowRunResult = {
    flow_id: flow.id,
    run_id: input.runId,
    env_id: envId,
    passed: 0,
    failed: 0,
    stopped: false,
    steps: [],
    variables,
    saved_pages: [],
  };
  const publish = (step: FlowStepResult | null, finished: boolean) =>
    events.publish('flow.progress', {
      itemId,
      flowId: flow.id,
      runId: input.runId,
      byUid: actor.uid,
      done: result.steps.length,
      total,
      finished,
      step: step && {
        round: step.round,
        flow_page_id: step.flow_page_id,
        page_id: step.page_id,
        page_title: step.page_title,
        method: step.method,
        status: step.status,
        pass: step.pass,
        duration_ms: step.duration_ms,
        error: step.error,
      },
    });

  run: for (let round = 1; round <= times; round++) {
    if (round > 1 && flow.time_interval > 0) await sleep(flow.time_interval * 1000);
    for (const row of rows) {
      const page = byId.get(row.page_id);
      const step: FlowStepResult = {
        round,
        flow_page_id: row.id,
        page_id: row.page_id,
        page_title: page?.page_title ?? '',
        method: '',
        url: '',
        request_headers: [],
        request_body: '',
        status: 0,
        response_headers: [],
        response_body: '',
        duration_ms: 0,
        pass: false,
        error: '',
        extracted: {},
      };
      const request = page ? stepRequest(page.page_content, globals) : null;
      if (!request) step.error = page ? 'The page is not an API document' : 'Page not found';
      else {
        const sent = substitute(request, variables);
        Object.assign(step, {
          method: sent.method,
          url: sent.url,
          request_headers: sent.headers,
          request_body: sent.body,
        });
        let answer: RelayAnswer | null = null;
        try {
          answer = await relayHttpRequest(actor, sent, policy);
        } catch (error) {
          if (!isApiError(error)) throw error;
          step.error = error.message;
        }
        if (answer) {
          step.status = answer.status;
          step.response_headers = answer.headers;
          step.response_body = answer.body.slice(0, MAX_KEPT_BODY);
          step.duration_ms = answer.duration_ms;
          const { values, missing } = await extract(answer.body, parseRules(row.extract ?? ''));
          Object.assign(variables, values);
          step.extracted = values;
          const ok = answer.status >= 200 && answer.status < 300;
          if (!ok) step.error = `HTTP ${answer.status}`;
          else if (missing.length) step.error = `Nothing found for ${missing.join(', ')}`;
          step.pass = ok && missing.length === 0;
        }
      }
      result.steps.push(step);
      if (step.pass) result.passed += 1;
      else result.failed += 1;
      publish(step, false);
      if (!step.pass && !flow.error_continue) {
        result.stopped = true;
        break run;
      }
    }
  }
  if (flow.save_change) result.saved_pages = await saveExamples(actor, itemId, result.steps);
  publish(null, true);
  return result;
}
