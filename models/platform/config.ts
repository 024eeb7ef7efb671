/**
 * Quire's settings: read from the environment once at start, validated, then passed around as a
 * plain object. Every key below is listed in `.env.example` with its default (a test checks that),
 * and in the README's configuration table.
 */
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** `"2mb"`, `"512kb"`, `"1048576"` → bytes. */
function parseByteSize(value: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  if (!match) return undefined;
  const units: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
  return Number(match[1]) * units[(match[2] ?? 'b').toLowerCase()];
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `a, b` → ['a', 'b'] (lower case, empties dropped). */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a host name. */
function isRelayAllowEntry(entry: string): boolean {
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return (
    ipaddr.isValid(entry) ||
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)
  );
}

/** Debian's chromium package. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A comma list of host names, addresses and CIDR ranges (ALLOW_PRIVATE_HOSTS and its alias). */
function allowList() {
  return z
    .string()
    .default('')
    .refine(
      (v) => commaList(v).every(isRelayAllowEntry),
      'must be a comma list of host names, IP addresses or CIDR ranges',
    )
    .transform(commaList);
}

/** A positive integer setting given as text (default as text). */
function positiveInt(fallback: string) {
  return z
    .string()
    .default(fallback)
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'must be a positive integer')
    .transform(Number);
}

const schema = z.object({
  // TCP port the single process serves everything on (API, realtime, web app). 0 = any free port.
  PORT: z
    .string()
    .default('4999')
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 65535, 'must be an integer from 0 to 65535')
    .transform(Number),
  // Interface to listen on. 0.0.0.0 = every interface; 127.0.0.1 keeps Quire private to this host.
  HOST: z.string().min(1).default('0.0.0.0'),
  // Where the embedded database engine keeps its files (ignored when MONGODB_URI is set).
  DATA_DIR: z.string().min(1).default('./data'),
  // A MongoDB connection string. Empty = use the embedded engine in DATA_DIR. The database named
  // in the URI path is used, `quire` when the URI names none.
  MONGODB_URI: z
    .string()
    .default('')
    .refine(
      (v) => v === '' || /^mongodb(\+srv)?:\/\//.test(v),
      'must start with mongodb:// or mongodb+srv://',
    ),
  // Redis connection string for running several Quire processes behind a load balancer: the
  // domain-event bus, the Socket.IO adapter and Hocuspocus go through it. Empty = one process,
  // everything in memory.
  REDIS_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://'),
  // What this process runs: `all` (API, web app and realtime on one port), `api` (API and web
  // app only) or `realtime` (Socket.IO and Hocuspocus only). Split roles need REDIS_URL, which
  // carries the events from API processes to realtime processes.
  ROLE: z.enum(['all', 'api', 'realtime']).default('all'),
  // How many worker processes serve HTTP and sockets (empty = one per CPU core). 1 = everything
  // in one process; more = a small primary (connection routing) and N workers, the first of
  // which runs the database engine.
  WORKERS: z
    .string()
    .default('')
    .refine(
      (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 64),
      'must be an integer from 1 to 64',
    )
    .transform((v) => (v === '' ? os.availableParallelism() : Number(v))),
  // Node's flags for each worker process (WORKERS > 1), or `none` for V8's own heap sizing. The
  // default was measured on a 2-core machine (server/cluster/primary.ts): 8 MB semi-spaces cost
  // no CPU per request against V8's 16 MB and keep ~60 MB less per worker; growing the old
  // generation by 50% instead of up to 4x cut the peak RSS by a third. Without allocation-site
  // pretenuring, V8 stops allocating the request and response objects of page/info straight in
  // the old generation (where they filled it: a full collection twice a second per worker), which
  // took page/info from 42% to 51-53% of the bare-Node ceiling; two GC helper threads per worker
  // instead of Node's four contend less with the other workers (docs/benchmarks.md).
  WORKER_NODE_FLAGS: z
    .string()
    .default(
      '--max-semi-space-size=8 --heap-growing-percent=50 --no-allocation-site-pretenuring --v8-pool-size=2',
    )
    .refine(
      (v) =>
        v === 'none' || v.split(/\s+/).every((flag) => /^--[a-z][a-z0-9-]*(=\S+)?$/.test(flag)),
      'must be `none` or Node flags such as --max-semi-space-size=8, separated by spaces',
    )
    .transform((v) => (v === 'none' ? [] : v.split(/\s+/))),
  // One full garbage collection 3 s after the serving processes started (`true`/`false`): V8
  // otherwise keeps the heap start-up grew (measured: the lead worker at rest 130 -> 113 MB RSS).
  GC_AFTER_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  // Seconds a page lock survives after its holder's last socket has gone (a closed tab, a lost
  // connection), before it is released for others; a reconnect within it keeps the lock.
  LOCK_GRACE_SECONDS: z
    .string()
    .default('60')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 3600,
      'must be an integer from 1 to 3600',
    )
    .transform(Number),
  // Milliseconds a SIGTERM stop gives in-flight requests and live documents before it cuts the
  // connections that are left (the database is closed cleanly either way). An orchestrator's own
  // grace (Kubernetes terminationGracePeriodSeconds, compose stop_grace_period) must be longer.
  SHUTDOWN_GRACE_MS: z
    .string()
    .default('10000')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 100 && Number(v) <= 600_000,
      'must be an integer from 100 to 600000',
    )
    .transform(Number),
  // Start even though DATA_DIR is on a container's own writable layer (lost with the container):
  // `true` only where losing the data is intended (a demo, CI). See models/platform/ephemeral.ts.
  ALLOW_EPHEMERAL_DATA: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // Password of the `showdoc` admin created on the very first start. Empty = a random one, printed
  // once. Changing it later has no effect: use `npm run quire -- user:password showdoc <new>`.
  ADMIN_PASSWORD: z.string().default(''),
  // Largest accepted JSON or form request body, e.g. 2mb, 512kb (uploads have their own limit).
  BODY_LIMIT: z
    .string()
    .default('2mb')
    .refine((v) => parseByteSize(v) !== undefined, 'must be a size such as 2mb, 512kb or 1048576')
    .transform((v) => parseByteSize(v) as number),
  // Minimum level of the JSON log lines written to stdout.
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // Time zone of the `YYYY-MM-DD HH:MM:SS` times in API answers (ShowDoc's APP_TIMEZONE).
  APP_TIMEZONE: z.string().default('Asia/Shanghai').refine(isTimeZone, 'must be an IANA time zone'),
  // Express `trust proxy`: false, true, a hop count, or a comma list of proxy addresses/subnets.
  // Set it when Quire runs behind a reverse proxy so client IPs (stored with tokens) are right.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string => {
      if (v === 'true') return true;
      if (v === 'false' || v === '') return false;
      if (/^\d+$/.test(v)) return Number(v);
      return v;
    }),
  // Release feed the back office's "about" screen checks for a newer version: a URL answering JSON
  // with `version` (e.g. an npm registry `<package>/latest` document) or `tag_name` (a GitHub
  // latest-release document). Empty = no update checks.
  UPDATE_FEED_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^https?:\/\//.test(v), 'must start with http:// or https://'),
  // Addresses the server's own connections (HTTP test relay, AI service, LDAP, OAuth2, S3, release
  // feed) may reach although they are private (loopback, private networks, link-local, cloud
  // metadata …): a comma list of host names, addresses and CIDR ranges, e.g.
  // `localhost, ldap.intranet, 10.1.0.0/16`. Empty = public addresses only.
  ALLOW_PRIVATE_HOSTS: allowList(),
  // The older name of ALLOW_PRIVATE_HOSTS (it once opened the HTTP test relay alone); both are
  // read and their entries joined.
  HTTP_RELAY_ALLOW_HOSTS: allowList(),
  // The Chromium export/pdf prints with (headless, started per export). Missing = PDF export
  // answers an error saying it is unavailable; everything else works.
  PDF_CHROMIUM_PATH: z.string().min(1).default(DEFAULT_CHROMIUM_PATH),
  // MCP endpoint (AI tokens): calls one token may make, and all of one user's tokens together,
  // per 10 minutes. ShowDoc allows 10000 per token.
  MCP_TOKEN_RATE_LIMIT: z
    .string()
    .default('10000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'must be a positive integer')
    .transform(Number),
  MCP_USER_RATE_LIMIT: z
    .string()
    .default('20000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'must be a positive integer')
    .transform(Number),
  // "Ask the docs" (the item assistant, agent/*): questions one user, and one guest address, may
  // ask per 10 minutes; max_tokens of each model call; model calls per answer (tool rounds + the
  // answer). Each question costs the site's AI account.
  ASSISTANT_USER_RATE_LIMIT: positiveInt('60'),
  ASSISTANT_GUEST_RATE_LIMIT: positiveInt('20'),
  ASSISTANT_MAX_TOKENS: positiveInt('1024'),
  ASSISTANT_MAX_STEPS: positiveInt('6'),
  // Webhooks: seconds to wait before each retry of a failed delivery (its length is the number
  // of retries; the default spans about a day), failed attempts in a row that disable a hook,
  // and how long one attempt may take.
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('60,300,1800,7200,21600,43200')
    .refine(
      (v) => v.split(',').every((s) => /^\s*\d+(\.\d+)?\s*$/.test(s)),
      'must be a comma list of seconds',
    )
    .transform((v) => v.split(',').map((s) => Number(s.trim()))),
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .default('10')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'must be a positive integer')
    .transform(Number),
  WEBHOOK_TIMEOUT_MS: z
    .string()
    .default('10000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 100, 'must be at least 100')
    .transform(Number),
  // Live API contracts: how often (seconds) the scheduler looks for followed OpenAPI URLs that
  // are due; each follow's own schedule (hourly, daily, every N minutes) says when one is.
  CONTRACT_POLL_SECONDS: z
    .string()
    .default('60')
    .refine((v) => /^\d+(\.\d+)?$/.test(v) && Number(v) >= 0.05, 'must be at least 0.05')
    .transform(Number),
  // Admission control (api/admission.ts): requests one worker runs at once in each lane (reads;
  // writes have a lane of their own so reads never starve saves). 0 = no limit (no queueing, no 503).
  // 16, not 64: with 64 reads running, a worker's event-loop turns grow so long that saves (a dozen
  // database round trips each) and new connections handed over by the primary waited past 10 s —
  // 0 saves/s in the bench's overload cell; with 16, 0.6 of the solo rate over 60 s and no timeouts
  // (docs/benchmarks.md "Under overload"). Ordinary loads (c=10, c=50) serve the same.
  MAX_INFLIGHT_PER_WORKER: z
    .string()
    .default('16')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 0, 'must be an integer of at least 0')
    .transform(Number),
  // Requests each lane of a worker holds waiting for a slot; past it they get 503 + Retry-After at once.
  MAX_QUEUE_PER_WORKER: z
    .string()
    .default('256')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 0, 'must be an integer of at least 0')
    .transform(Number),
  // Longest a request waits in that queue before it is answered 503 + Retry-After.
  QUEUE_TIMEOUT_MS: z
    .string()
    .default('2000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'must be an integer of at least 1')
    .transform(Number),
  // Memory (MB, per worker) for reused answers of repeated reads (api/answerCache.ts); 0 = off.
  // An answer is reused for ten seconds at most, so a few MB hold every hot page's.
  ANSWER_CACHE_MB: z
    .string()
    .default('16')
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 4096, 'must be an integer from 0 to 4096')
    .transform(Number),
});

/** The keys Quire reads; `.env.example` lists exactly these. */
export const CONFIG_KEYS = Object.keys(schema.shape) as (keyof typeof schema.shape)[];

type Parsed = z.output<typeof schema>;

export interface Config {
  port: number;
  host: string;
  /** Absolute. */
  dataDir: string;
  mongodbUri: string;
  redisUrl: string;
  role: Parsed['ROLE'];
  /** Worker processes (server/cluster/): 1 = the single-process server. */
  workers: number;
  /** Node flags of each worker process (WORKER_NODE_FLAGS). */
  workerNodeFlags: string[];
  gcAfterStart: boolean;
  lockGraceSeconds: number;
  /** SHUTDOWN_GRACE_MS: how long a stop waits for requests and documents before cutting. */
  shutdownGraceMs: number;
  /** ALLOW_EPHEMERAL_DATA. */
  allowEphemeralData: boolean;
  adminPassword: string;
  bodyLimitBytes: number;
  logLevel: Parsed['LOG_LEVEL'];
  appTimezone: string;
  trustProxy: boolean | number | string;
  updateFeedUrl: string;
  /** ALLOW_PRIVATE_HOSTS and HTTP_RELAY_ALLOW_HOSTS joined, lower case. */
  allowPrivateHosts: string[];
  /** PDF_CHROMIUM_PATH. */
  pdfChromiumPath: string;
  /** MCP calls per token / per user in 10 minutes. */
  mcpTokenRateLimit: number;
  mcpUserRateLimit: number;
  /** The item assistant's limits (ASSISTANT_*). */
  assistantLimits: {
    perUser: number;
    perGuestAddress: number;
    maxTokens: number;
    maxSteps: number;
  };
  /** Seconds before each webhook retry; failures in a row that disable a hook; attempt timeout. */
  webhookRetrySchedule: number[];
  webhookDisableAfter: number;
  webhookTimeoutMs: number;
  /** How often the API contract scheduler looks for due follows (seconds). */
  contractPollSeconds: number;
  /** Admission control per worker and lane (api/admission.ts); maxInflight 0 = off. */
  maxInflightPerWorker: number;
  maxQueuePerWorker: number;
  queueTimeoutMs: number;
  /** ANSWER_CACHE_MB in bytes (api/answerCache.ts); 0 = off. */
  answerCacheBytes: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment. Empty strings count as unset, so `PORT=` in a `.env` file means the
 * default. Throws ConfigError naming every bad key and its value.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Config {
  const input: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '?');
        // Never echo a secret back, even in an error message.
        const shown =
          key === 'ADMIN_PASSWORD' || key === 'MONGODB_URI' || key === 'REDIS_URL'
            ? ''
            : ` (got ${JSON.stringify(input[key])})`;
        return `${key} ${issue.message}${shown}`;
      }),
    );
  }
  const c = result.data;
  if (c.ROLE !== 'all' && !c.REDIS_URL)
    throw new ConfigError([
      `ROLE ${c.ROLE} needs REDIS_URL (split roles exchange events through Redis)`,
    ]);
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(cwd, c.DATA_DIR),
    mongodbUri: c.MONGODB_URI,
    redisUrl: c.REDIS_URL,
    role: c.ROLE,
    workers: c.WORKERS,
    workerNodeFlags: c.WORKER_NODE_FLAGS,
    gcAfterStart: c.GC_AFTER_START,
    lockGraceSeconds: c.LOCK_GRACE_SECONDS,
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    allowEphemeralData: c.ALLOW_EPHEMERAL_DATA,
    adminPassword: c.ADMIN_PASSWORD,
    bodyLimitBytes: c.BODY_LIMIT,
    logLevel: c.LOG_LEVEL,
    appTimezone: c.APP_TIMEZONE,
    trustProxy: c.TRUST_PROXY,
    updateFeedUrl: c.UPDATE_FEED_URL,
    allowPrivateHosts: [...new Set([...c.ALLOW_PRIVATE_HOSTS, ...c.HTTP_RELAY_ALLOW_HOSTS])],
    pdfChromiumPath: c.PDF_CHROMIUM_PATH,
    mcpTokenRateLimit: c.MCP_TOKEN_RATE_LIMIT,
    mcpUserRateLimit: c.MCP_USER_RATE_LIMIT,
    assistantLimits: {
      perUser: c.ASSISTANT_USER_RATE_LIMIT,
      perGuestAddress: c.ASSISTANT_GUEST_RATE_LIMIT,
      maxTokens: c.ASSISTANT_MAX_TOKENS,
      maxSteps: c.ASSISTANT_MAX_STEPS,
    },
    webhookRetrySchedule: c.WEBHOOK_RETRY_SCHEDULE,
    webhookDisableAfter: c.WEBHOOK_DISABLE_AFTER,
    webhookTimeoutMs: c.WEBHOOK_TIMEOUT_MS,
    contractPollSeconds: c.CONTRACT_POLL_SECONDS,
    maxInflightPerWorker: c.MAX_INFLIGHT_PER_WORKER,
    maxQueuePerWorker: c.MAX_QUEUE_PER_WORKER,
    queueTimeoutMs: c.QUEUE_TIMEOUT_MS,
    answerCacheBytes: c.ANSWER_CACHE_MB * 1024 * 1024,
  };
}
