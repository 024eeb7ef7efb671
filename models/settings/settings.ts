/**
 * Site settings: ShowDoc's `options` rows (reference accounts §6) read as typed values with their
 * effective defaults. Everything that asks "is registration open?", "how long does a token last?"
 * asks here, so a default lives in exactly one place.
 *
 * The options table is tiny and read on hot paths (every login, every item/info), so the whole
 * table is cached in the process. A write through `setSetting(s)` drops the cache at once and
 * publishes `settings.changed`, which the Redis relay carries to the other processes, whose
 * listener below drops theirs; CACHE_TTL_MS bounds staleness should a relay message be lost.
 */
import type mongoose from 'mongoose';
import {
  connection,
  events,
  NOT_KEPT,
  noteRead,
  noteUntracedRead,
  perContext,
  type TracedSource,
} from '../platform';
import { Option } from './schemas/options';

/** Only for a relay message lost on the way: `settings.changed` is what refreshes the cache. */
const CACHE_TTL_MS = 60_000;

const DEFAULT_HISTORY_VERSION_COUNT = 20;
const MAX_HISTORY_VERSION_COUNT = 1000;
const DEFAULT_TOKEN_TTL_DAYS = 180;
const MAX_TOKEN_TTL_DAYS = 3650;
const DEFAULT_UPLOAD_MAX_MB = 100;
const DEFAULT_AI_MAX_MESSAGE_LENGTH = 8000;
const DEFAULT_AI_TOOL_ROUNDS = 20;

export interface SiteSettings {
  /** Only the exact string "0" closes registration. */
  registerOpen: boolean;
  /** "" | "1" landing page | "2" login | "3" home_item | "4" public square. */
  homePage: string;
  homeItem: string;
  beian: string;
  /** Page versions kept per page (Quire applies it; ShowDoc's admin UI says default 20). */
  historyVersionCount: number;
  showWatermark: boolean;
  /** Anonymous visitors must log in before reading any item. */
  forceLogin: boolean;
  strongPasswordEnabled: boolean;
  enablePublicSquare: boolean;
  /** Lifetime of tokens made by password login and registration. */
  tokenTtlDays: number;
  /** '' = derive from the request. */
  siteUrl: string;
  /** `is_show_ai`: an AI key is configured. */
  aiEnabled: boolean;
  aiMaxMessageLength: number;
  aiToolRounds: number;
  /** The raw `oauth2_open` option (ShowDoc reports it verbatim, null when never stored). */
  oauth2Open: string | null;
  /** The decoded `oauth2_form` JSON object, or null. */
  oauth2Form: Record<string, unknown> | null;
  /** Collaborators one owner may add across items and teams; null = no limit (the default). */
  memberQuota: number | null;
  /** Pages one item may hold (`page_quota`, back office); null = no limit (the default). */
  pageQuota: number | null;
  /**
   * Every logged-in user may find every user in the member pickers (ShowDoc's behaviour). Off, a
   * picker lists the people one already works with. Default: on when registration is closed.
   */
  userDirectoryOpen: boolean;
  /** Largest accepted upload in bytes (Quire option `upload_max_mb`). */
  uploadMaxBytes: number;
  /** "0" disables the sample items ShowDoc imports for new accounts. */
  createSample: boolean;
  /** Cloud storage is on: new uploads go to `ossSetting`'s bucket. */
  ossOpen: boolean;
  /** The decoded `oss_setting` form (kept while switched off: older cloud files stay readable). */
  ossSetting: Record<string, unknown> | null;
}

/**
 * THE mapping between Quire's setting names and the spec's (ShowDoc's) spellings of the same
 * setting (seed 002 §3 names the AI settings `open_api_key` / `open_api_host`). Every reader and
 * writer goes through it: a value is stored under Quire's name, either spelling is accepted on
 * save, and the back office answers both.
 */
export const SETTING_ALIASES = {
  open_api_key: 'open_ai_key',
  open_api_host: 'open_ai_host',
} as const;
export type SettingAlias = keyof typeof SETTING_ALIASES;

/** The spec's spellings of a Quire setting name (none for most). */
export function aliasesOf(name: string): SettingAlias[] {
  return (Object.keys(SETTING_ALIASES) as SettingAlias[]).filter(
    (alias) => SETTING_ALIASES[alias] === name,
  );
}

/**
 * A setting's stored value under its Quire name, else under one of its spec spellings (ShowDoc
 * databases moved over hold only those).
 */
export function readAliased(values: ReadonlyMap<string, string>, name: string): string | undefined {
  const own = values.get(name);
  if (own) return own;
  for (const alias of aliasesOf(name)) {
    const value = values.get(alias);
    if (value) return value;
  }
  return own;
}

interface CacheEntry {
  values: Map<string, string>;
  loadedAt: number;
}

interface SettingsCache {
  entry: CacheEntry | null;
  loading: Promise<Map<string, string>> | null;
  /** Bumped on every invalidation so a read that started before a write cannot re-fill stale data. */
  generation: number;
}

/** The instance's options; another process (or this one) changing them drops them. */
const settingsCache = perContext((): SettingsCache => {
  const state: SettingsCache = { entry: null, loading: null, generation: 0 };
  events.subscribe('settings.changed', () => dropCache(state), { synchronous: true });
  return state;
});

function dropCache(state: SettingsCache): void {
  state.generation += 1;
  state.entry = null;
  state.loading = null;
}

/** For read traces (models/platform/requestClient.ts): the options an instance keeps now. */
const KEPT_OPTIONS: TracedSource = {
  currentValue: (state) => (state as SettingsCache).entry?.values ?? NOT_KEPT,
};

async function loadAll(): Promise<Map<string, string>> {
  const state = settingsCache();
  const cache = state.entry;
  if (cache && Date.now() - cache.loadedAt < CACHE_TTL_MS) {
    noteRead(KEPT_OPTIONS, state, cache.values);
    return cache.values;
  }
  noteUntracedRead();
  if (state.loading) return state.loading;
  const startedAt = state.generation;
  const pending = Option.find({}, { option_name: 1, option_value: 1, _id: 0 })
    .lean()
    .then((rows) => {
      const values = new Map<string, string>();
      for (const row of rows) {
        if (typeof row.option_name === 'string')
          values.set(row.option_name, row.option_value == null ? '' : String(row.option_value));
      }
      if (startedAt === state.generation) state.entry = { values, loadedAt: Date.now() };
      return values;
    })
    .finally(() => {
      if (state.loading === pending) state.loading = null;
    });
  state.loading = pending;
  return pending;
}

/** Forgets the cached options (after a write, or when a test changes rows behind our back). */
export function invalidateSettings(): void {
  dropCache(settingsCache());
}

/** The raw stored value of an option, or null when it was never stored. */
export async function getSetting(name: string): Promise<string | null> {
  return (await loadAll()).get(name) ?? null;
}

/** Every stored option (for the admin settings screens). */
export async function getAllSettings(): Promise<Record<string, string>> {
  return Object.fromEntries(await loadAll());
}

function changed(names: string[]): void {
  invalidateSettings();
  events.publish('settings.changed', { names });
}

/** Stores an option (as a string, like ShowDoc) and drops the cache. */
export async function setSetting(name: string, value: string): Promise<void> {
  await setSettings({ [name]: value });
}

/** Stores several options together: all of them or, on a failure, none. */
export async function setSettings(values: Record<string, string>): Promise<void> {
  const names = Object.keys(values);
  if (!names.length) return;
  const write = (session?: mongoose.ClientSession) =>
    Option.bulkWrite(
      names.map((name) => ({
        updateOne: {
          filter: { option_name: String(name) },
          update: { $set: { option_value: String(values[name]) } },
          upsert: true,
        },
      })),
      { session },
    );
  if (names.length === 1) await write();
  else await connection().transaction((session) => write(session));
  changed(names);
}

/** Removes an option, so its effective default applies again. */
export async function deleteSetting(name: string): Promise<void> {
  await Option.deleteOne({ option_name: String(name) });
  changed([name]);
}

/** PHP `intval` of a stored string: leading integer, else the fallback. */
function intOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const match = /^\s*([+-]?\d+)/.exec(value);
  if (!match) return fallback;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : fallback;
}

function flagOf(value: string | undefined): boolean {
  return intOf(value, 0) > 0;
}

function boundedInt(value: string | undefined, fallback: number, max: number): number {
  const n = intOf(value, fallback);
  return n > 0 ? Math.min(n, max) : fallback;
}

const HTML_ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&#039;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};

/** ShowDoc stores JSON forms HTML-entity-encoded; undo that, then parse. null when not an object. */
export function decodeJsonOption(value: string | undefined | null): Record<string, unknown> | null {
  if (!value) return null;
  const text = value.replace(/&(quot|#0?39|lt|gt|amp);/g, (entity) => HTML_ENTITIES[entity]);
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * `user_directory_open`: stored 1/0, else on exactly when registration is closed — a closed
 * team's site made its accounts itself, an open one holds strangers.
 */
export function userDirectoryOpen(values: ReadonlyMap<string, string>): boolean {
  const stored = values.get('user_directory_open');
  if (stored === '1' || stored === '0') return stored === '1';
  return values.get('register_open') === '0';
}

/** Every setting, typed, with its effective default. */
export async function getSiteSettings(): Promise<SiteSettings> {
  const values = await loadAll();
  const get = (name: string) => values.get(name);
  const quota = intOf(get('member_quota'), 0);
  const pageQuota = intOf(get('page_quota'), 0);
  return {
    registerOpen: get('register_open') !== '0',
    homePage: get('home_page') ?? '',
    homeItem: get('home_item') ?? '',
    beian: get('beian') ?? '',
    historyVersionCount: boundedInt(
      get('history_version_count'),
      DEFAULT_HISTORY_VERSION_COUNT,
      MAX_HISTORY_VERSION_COUNT,
    ),
    showWatermark: flagOf(get('show_watermark')),
    forceLogin: flagOf(get('force_login')),
    strongPasswordEnabled: get('strong_password_enabled') === '1',
    enablePublicSquare: flagOf(get('enable_public_square')),
    tokenTtlDays: boundedInt(get('token_ttl_days'), DEFAULT_TOKEN_TTL_DAYS, MAX_TOKEN_TTL_DAYS),
    siteUrl: get('site_url') ?? '',
    aiEnabled: Boolean(readAliased(values, 'open_ai_key')),
    aiMaxMessageLength: boundedInt(
      get('ai_max_message_length'),
      DEFAULT_AI_MAX_MESSAGE_LENGTH,
      1_000_000,
    ),
    aiToolRounds: boundedInt(get('ai_tool_rounds'), DEFAULT_AI_TOOL_ROUNDS, 1000),
    oauth2Open: get('oauth2_open') ?? null,
    oauth2Form: decodeJsonOption(get('oauth2_form')),
    memberQuota: quota > 0 ? quota : null,
    pageQuota: pageQuota > 0 ? pageQuota : null,
    userDirectoryOpen: userDirectoryOpen(values),
    uploadMaxBytes: boundedInt(get('upload_max_mb'), DEFAULT_UPLOAD_MAX_MB, 10_240) * 1024 * 1024,
    createSample: get('create_sample') !== '0',
    ossOpen: flagOf(get('oss_open')),
    ossSetting: decodeJsonOption(get('oss_setting')),
  };
}

/** The AI writing assistant's service: an OpenAI-compatible chat endpoint (admin settings). */
export interface AiService {
  /** Base URL without a trailing slash, e.g. `https://api.openai.com` (`/v1` is added). */
  host: string;
  /** Secret: only handed to the HTTP client, never answered or logged. */
  key: string;
  model: string;
  /** The admin's system prompt; '' = the built-in one. */
  systemPrompt: string;
  maxMessageLength: number;
}

const DEFAULT_AI_HOST = 'https://api.openai.com';
const DEFAULT_AI_MODEL = 'gpt-4o';

/**
 * The AI service, or null when no key is stored (under either spelling: SETTING_ALIASES); a
 * host without a scheme gets
 * https, as ShowDoc's AiController does.
 */
export async function getAiService(): Promise<AiService | null> {
  const values = await loadAll();
  const get = (name: string) => readAliased(values, name)?.trim() ?? '';
  const key = get('open_ai_key');
  if (!key) return null;
  let host = get('open_ai_host') || DEFAULT_AI_HOST;
  if (!/^https?:\/\//i.test(host)) host = `https://${host}`;
  return {
    host: host.replace(/\/+$/, ''),
    key,
    model: get('ai_model_name') || DEFAULT_AI_MODEL,
    systemPrompt: get('ai_system_prompt'),
    maxMessageLength: boundedInt(
      values.get('ai_max_message_length'),
      DEFAULT_AI_MAX_MESSAGE_LENGTH,
      1_000_000,
    ),
  };
}
