/**
 * Runs a test flow from the browser: each step is sent as the HTTP test tool sends (directly when
 * the target's CORS lets the browser read the answer, else through the server relay and its
 * address policy — `sendHttpTest`, the same decision), with the server runner's rules: the
 * environment's variables then values extracted by earlier steps fill `{{name}}`, the item's
 * global parameters are added, a step passes on a 2xx answer whose JSONPath extractions all
 * matched, a failure stops the run unless the flow continues on error, `times` rounds
 * `time_interval` seconds apart. Nothing is pushed to others and no page is written: that is
 * the server run's (`flow/run`).
 */
import { unescapeHtml } from '../../markdown/unescape';
import { request } from '../../api/request';
import { itemGlobalParams, sendHttpTest } from '../editor/assets/assistantsApi';
import { requestFromPage, type Sendable, toSendable } from '../editor/assets/httpTestRequest';
import { fill, fillGlobals, fillRequest, variablesFor } from './variables';
import type { Flow, FlowRun, FlowStep, Variable } from './workbenchApi';

// A type, not an interface: it must fit the contract's open step object (an index signature).
export type BrowserStepResult = {
  round: number;
  flow_page_id: number;
  page_id: number;
  page_title: string;
  method: string;
  url: string;
  request_headers: [string, string][];
  request_body: string;
  status: number;
  response_body: string;
  duration_ms: number;
  pass: boolean;
  error: string;
  extracted: Record<string, string>;
  via: 'browser' | 'relay' | '';
};

const QUIET = { alert: false } as const;

function rulesOf(step: FlowStep): { var: string; path: string }[] {
  try {
    const list: unknown = JSON.parse(String((step as { extract?: string }).extract || '[]'));
    return Array.isArray(list)
      ? (list as { var: string; path: string }[]).filter((r) => r && r.var && r.path)
      : [];
  } catch {
    return [];
  }
}

async function extract(body: string, rules: { var: string; path: string }[]) {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  if (rules.length === 0) return { values, missing };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { values, missing: rules.map((r) => r.var) };
  }
  const { JSONPath } = await import('jsonpath-plus');
  for (const rule of rules) {
    let found: unknown[];
    try {
      found = JSONPath({ path: rule.path, json: json as object, wrap: true, eval: false });
    } catch {
      found = [];
    }
    if (found.length === 0 || found[0] === undefined) missing.push(rule.var);
    else values[rule.var] = typeof found[0] === 'string' ? found[0] : JSON.stringify(found[0]);
  }
  return { values, missing };
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export async function runFlowInBrowser(options: {
  itemId: number;
  flow: Flow;
  steps: FlowStep[];
  envId: number;
  runId: string;
  signal: AbortSignal;
  onStep: (step: BrowserStepResult) => void;
}): Promise<FlowRun & { steps: BrowserStepResult[] }> {
  const { itemId, flow, envId, signal } = options;
  const enabled = options.steps.filter((s) => s.enabled);
  const [rows, globals, pages] = await Promise.all([
    request<Variable[]>('itemVariable/getList', { item_id: itemId }, QUIET),
    itemGlobalParams(itemId),
    Promise.all(
      enabled.map((s) =>
        request<{ page_content?: string }>('page/info', { page_id: s.page_id }, QUIET).then(
          (page) => unescapeHtml(page.page_content ?? ''),
          () => null,
        ),
      ),
    ),
  ]);
  const variables = variablesFor(rows, envId);
  const result = {
    flow_id: flow.id,
    run_id: options.runId,
    env_id: envId,
    passed: 0,
    failed: 0,
    stopped: false,
    steps: [] as BrowserStepResult[],
    variables,
    saved_pages: [] as number[],
  };
  const times = Math.max(flow.times, 1);
  run: for (let round = 1; round <= times; round++) {
    if (round > 1 && flow.time_interval > 0) await wait(flow.time_interval * 1000, signal);
    for (const [index, row] of enabled.entries()) {
      if (signal.aborted) break run;
      const content = pages[index];
      const step: BrowserStepResult = {
        round,
        flow_page_id: row.id,
        page_id: row.page_id,
        page_title: row.page_title || '',
        method: '',
        url: '',
        request_headers: [],
        request_body: '',
        status: 0,
        response_body: '',
        duration_ms: 0,
        pass: false,
        error: '',
        extracted: {},
        via: '',
      };
      let sendable: Sendable | null = null;
      if (content === null) step.error = 'Page not found';
      else {
        // A Markdown page's URL may itself be `{{host}}/…`: filled before it is read.
        const text = content.trim().startsWith('{') ? content : fill(content, variables);
        try {
          sendable = toSendable(
            fillRequest(requestFromPage(text), variables),
            fillGlobals(globals, variables),
          );
        } catch {
          step.error = 'The page is not an API document';
        }
      }
      if (sendable) {
        Object.assign(step, {
          method: sendable.method,
          url: sendable.url,
          request_headers: sendable.headers,
          request_body: sendable.body,
        });
        try {
          const answer = await sendHttpTest(sendable, signal);
          step.status = answer.status;
          step.response_body = answer.body;
          step.duration_ms = answer.durationMs;
          step.via = answer.via;
          const { values, missing } = await extract(answer.body, rulesOf(row));
          Object.assign(variables, values);
          step.extracted = values;
          const ok = answer.status >= 200 && answer.status < 300;
          if (!ok) step.error = `HTTP ${answer.status}`;
          else if (missing.length) step.error = `Nothing found for ${missing.join(', ')}`;
          step.pass = ok && missing.length === 0;
        } catch (error) {
          step.error = error instanceof Error ? error.message : String(error);
        }
      }
      result.steps.push(step);
      if (step.pass) result.passed += 1;
      else result.failed += 1;
      options.onStep(step);
      if (!step.pass && !flow.error_continue) {
        result.stopped = true;
        break run;
      }
    }
  }
  return result;
}
