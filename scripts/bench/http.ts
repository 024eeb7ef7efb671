/**
 * HTTP cells: one endpoint at one concurrency for a fixed time, driven by autocannon with
 * keep-alive connections, every response checked. A response counts as an error unless it is
 * HTTP 200 with ShowDoc's success envelope (`{"error_code":0,…`); connection errors and timeouts
 * count too. A cell with any error fails.
 *
 * Requests look like ShowDoc's web client sends them: POST, form-encoded, `user_token` in the
 * body, a browser user agent. `page/save` sends the Markdown as the editor does:
 * `page_content = encodeURIComponent(text)` with `is_urlencode=1`, inside the form encoding.
 */
import autocannon from 'autocannon';
import { pageMarkdown, pageTitle } from './content';
import { startCpuMeter, startRssSampler, type CpuUse } from './procstat';
import type { SeedResult } from './seed';
import { LatencyLog, type Latency } from './stats';

export type Endpoint = 'page/info' | 'item/info' | 'item/search' | 'page/save';
export const ENDPOINTS: Endpoint[] = ['page/info', 'item/info', 'item/search', 'page/save'];

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** How every success answer starts (api/envelope.ts puts `error_code` first). */
const SUCCESS_PREFIX = '{"error_code":0,';
/** Pre-encoded texts per page for page/save, so the generator does not re-encode 3 KB per request. */
const SAVE_VARIANTS = 8;

export interface RequestPlan {
  path: string;
  /** A new form body for each request (random page, next text…). */
  body(): string;
}

function form(fields: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
}

function pick<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

/**
 * The requests of one endpoint against the seeded data. `token` overrides the seeded user's token
 * (the harness's own test sends a bogus one to prove that error answers fail the cell).
 */
export function planRequests(
  endpoint: Endpoint,
  seed: SeedResult,
  token = seed.userToken,
): RequestPlan {
  const path = `/api/${endpoint}`;
  switch (endpoint) {
    case 'page/info':
      return { path, body: () => form({ page_id: pick(seed.pages).pageId, user_token: token }) };
    case 'item/info':
      return {
        path,
        body: () =>
          form({ item_id: seed.itemId, keyword: '', default_page_id: 0, user_token: token }),
      };
    case 'item/search': {
      const body = form({ item_id: seed.itemId, keyword: seed.keyword, user_token: token });
      return { path, body: () => body };
    }
    case 'page/save': {
      // Built once per page number and variant: the keyword rule is kept (see content.ts).
      const encoded = new Map<string, string>();
      const contentOf = (number: number, variant: number) => {
        const key = `${number}:${variant}`;
        let value = encoded.get(key);
        if (value === undefined) {
          value = encodeURIComponent(pageMarkdown(number, variant));
          encoded.set(key, value);
        }
        return value;
      };
      let counter = 0;
      return {
        path,
        body: () => {
          const page = pick(seed.pages);
          const variant = 1 + (counter++ % SAVE_VARIANTS);
          return form({
            page_id: page.pageId,
            item_id: seed.itemId,
            page_title: pageTitle(page.number),
            cat_id: page.catId,
            page_content: contentOf(page.number, variant),
            is_urlencode: 1,
            page_comments: '',
            user_token: token,
          });
        },
      };
    }
  }
}

export interface CellErrors {
  total: number;
  /** Responses with an HTTP status other than 200. */
  httpStatus: number;
  /** HTTP 200 answers whose envelope carried an error_code other than 0 (or were not the envelope). */
  envelope: number;
  /** Connection errors (refused, reset…). */
  transport: number;
  timeouts: number;
  /** error_code (or `http <status>`) → count. */
  byCode: Record<string, number>;
  /** The start of the first bad answer, to tell what went wrong. */
  sample?: string;
}

export interface HttpCell {
  scenario: string;
  target: 'quire' | 'node';
  concurrency: number;
  durationSec: number;
  requests: number;
  rps: number;
  latency: Latency;
  /** Latency of the HTTP 200 answers alone (differs from `latency` when some were refused). */
  latencyOk: Latency;
  errors: CellErrors;
  ok: boolean;
  /** rps divided by the bare Node server's rps at the same concurrency. */
  fractionOfNode?: number;
  cpu: CpuUse | null;
  /** Largest RSS of the server seen during the cell, MB. */
  serverRssPeakMB: number;
}

export interface CellRun {
  scenario: string;
  target: 'quire' | 'node';
  url: string;
  plan: RequestPlan;
  concurrency: number;
  durationSec: number;
  /** The process answering (for its CPU and memory). */
  serverPid: number;
  /** Other processes of this benchmark, not counted as "other CPU". */
  ownPids?: number[];
  /** Per-request timeout, seconds. */
  timeoutSec?: number;
}

/** The error_code of an answer that is not a success envelope, or a label for what it was. */
function errorLabel(status: number, body: string): string {
  if (status !== 200) return `http ${status}`;
  const match = /^\{"error_code":(-?\d+)/.exec(body);
  if (match) return match[1];
  try {
    const parsed = JSON.parse(body) as { error_code?: unknown };
    if (parsed && typeof parsed === 'object' && 'error_code' in parsed)
      return String(parsed.error_code);
  } catch {
    // not JSON
  }
  return 'not an envelope';
}

/** Runs one cell. Never throws for bad answers: they are counted and fail the cell. */
export async function runHttpCell(run: CellRun): Promise<HttpCell> {
  const latencies = new LatencyLog();
  const latenciesOk = new LatencyLog();
  const errors: CellErrors = {
    total: 0,
    httpStatus: 0,
    envelope: 0,
    transport: 0,
    timeouts: 0,
    byCode: {},
  };
  let responses = 0;

  const onResponse = (status: number, body: string) => {
    responses++;
    if (status === 200 && body.startsWith(SUCCESS_PREFIX)) return;
    if (status !== 200) errors.httpStatus++;
    else errors.envelope++;
    const label = errorLabel(status, body);
    errors.byCode[label] = (errors.byCode[label] ?? 0) + 1;
    errors.sample ??= body.slice(0, 200);
  };

  const cpu = startCpuMeter(run.serverPid, run.ownPids);
  const rss = startRssSampler(run.serverPid);
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: run.url,
        connections: run.concurrency,
        duration: run.durationSec,
        timeout: run.timeoutSec ?? 10,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA },
        requests: [
          {
            method: 'POST',
            path: run.plan.path,
            setupRequest: (request) => ({ ...request, body: run.plan.body() }),
            onResponse: (status, body) => onResponse(status, body),
          },
        ],
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('response', (_client, status: number, _bytes, responseTime: number) => {
      latencies.add(responseTime);
      if (status === 200) latenciesOk.add(responseTime);
    });
  });
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuUse = cpu.stop();
  const serverRssPeakMB = rss.stop();

  // autocannon counts timeouts among its errors too.
  errors.timeouts = result.timeouts;
  errors.transport = result.errors - result.timeouts;
  if (errors.transport) errors.byCode.transport = errors.transport;
  if (result.timeouts) errors.byCode.timeout = result.timeouts;
  errors.total = errors.httpStatus + errors.envelope + errors.transport + errors.timeouts;

  return {
    scenario: run.scenario,
    target: run.target,
    concurrency: run.concurrency,
    durationSec: run.durationSec,
    requests: responses,
    rps: Math.round(responses / Math.max(elapsedSec, run.durationSec)),
    latency: latencies.summary(),
    latencyOk: latenciesOk.summary(),
    errors,
    ok: responses > 0 && errors.total === 0,
    cpu: cpuUse,
    serverRssPeakMB,
  };
}
