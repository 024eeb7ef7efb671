/**
 * The back office's site settings (`adminSetting/*`, reference accounts §9.23, spec 002 §3):
 * web settings, LDAP and OAuth2 forms, and the generic-access login secret key. Site admins only.
 * Values live in the options table through models/settings.ts, whose cache every process drops on
 * `settings.changed`, so a saved setting applies at once everywhere.
 *
 * Departures from ShowDoc, for safety:
 * - secrets (AI key and service token, cloud-storage secret/secretKey, LDAP bind password, OAuth2
 *   client secret) are write-only: a load answers '' plus `<name>_set` 1/0, and saving '' (or
 *   leaving the field out) keeps the stored secret;
 * - saveConfig changes only the keys it is sent (ShowDoc stored "0" for omitted switches, so a
 *   partial client could close registration by accident), and refuses bad values with 10101
 *   instead of storing them.
 */
import { randomBytes } from 'node:crypto';
import { findLiveItem, requireSiteAdmin, type Actor } from '../access';
import { type ApiError, errors } from '../platform';
import {
  SETTING_ALIASES,
  type SettingAlias,
  aliasesOf,
  decodeJsonOption,
  getAllSettings,
  getSetting,
  readAliased,
  setSettings,
  userDirectoryOpen,
} from './settings';

const MAX_TEXT = 2000;
const MAX_HISTORY = 1000;
export const OSS_TYPES = ['aliyun', 'qiniu', 'qcloud', 's3_storage'] as const;

const SWITCHES = [
  'register_open',
  'oss_open',
  'show_watermark',
  'force_login',
  'enable_public_square',
  'strong_password_enabled',
  'user_directory_open',
] as const;
const TEXTS = [
  'beian',
  'ai_model_name',
  'ai_service_url',
  'open_ai_host',
  'ai_system_prompt',
  'ai_welcome_message',
] as const;
const SECRETS = ['open_ai_key', 'ai_service_token'] as const;
const OSS_FIELDS = [
  'oss_type',
  'key',
  'endpoint',
  'bucket',
  'protocol',
  'domain',
  'region',
  'secretId',
] as const;
const OSS_SECRETS = ['secret', 'secretKey'] as const;

/** Every key saveConfig understands (the route reads exactly these). */
export const SITE_CONFIG_KEYS = [
  ...SWITCHES,
  ...TEXTS,
  ...SECRETS,
  'home_page',
  'home_item',
  'history_version_count',
  'site_url',
  'oss_setting',
  'ai_max_message_length',
  'ai_tool_rounds',
  'session_expire_days',
  'page_quota',
] as const;
/** What the route reads: every key plus the spec's spellings of some (SETTING_ALIASES). */
export const SITE_CONFIG_PARAMS = [
  ...SITE_CONFIG_KEYS,
  ...(Object.keys(SETTING_ALIASES) as SettingAlias[]),
] as const;
export type ConfigInput = Partial<Record<(typeof SITE_CONFIG_PARAMS)[number], unknown>>;

const DEFAULTS: Record<string, string> = {
  register_open: '1',
  home_page: '1',
  history_version_count: '20',
  ai_max_message_length: '8000',
  ai_tool_rounds: '20',
  session_expire_days: '180',
  page_quota: '0',
};
/** The largest per-item page quota the back office accepts (0 = no limit). */
const MAX_PAGE_QUOTA = 1_000_000;

function bad(name: string, why: string): ApiError {
  return errors.failed(`${name}: ${why}`);
}

function switchValue(name: string, raw: unknown): string {
  const text = String(raw).trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(text)) return '1';
  if (['0', 'false', 'off', 'no', ''].includes(text)) return '0';
  throw bad(name, 'expected 1 or 0');
}

function textValue(name: string, raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw bad(name, 'expected text');
  const text = String(raw).trim();
  if (text.length > MAX_TEXT) throw bad(name, `at most ${MAX_TEXT} characters`);
  return text;
}

function intValue(name: string, raw: unknown, min: number, max: number): string {
  const text = textValue(name, raw);
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw bad(name, `expected a whole number from ${min} to ${max}`);
  return String(Number(text));
}

function urlValue(name: string, raw: unknown): string {
  const text = textValue(name, raw).replace(/\/+$/, '');
  if (text && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(text))
    throw bad(name, 'expected an http:// or https:// address');
  return text;
}

/** An object sent as JSON text, a parsed JSON body or PHP-style `a[b]` form fields. */
function objectValue(name: string, raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    const parsed = decodeJsonOption(raw);
    if (parsed) return parsed;
  } else if (raw && typeof raw === 'object' && !Array.isArray(raw))
    return raw as Record<string, unknown>;
  throw bad(name, 'expected an object');
}

function secretFlags(stored: Record<string, unknown>, names: readonly string[]) {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    out[name] = '';
    out[`${name}_set`] = stored[name] ? 1 : 0;
  }
  return out;
}

/** A form with its secrets masked for loading. */
function maskForm(form: Record<string, unknown> | null, secrets: readonly string[]) {
  if (!form) return null;
  return { ...form, ...secretFlags(form, secrets) };
}

/** The submitted form's fields (as text), keeping stored secrets the client left blank. */
function mergeForm(
  name: string,
  raw: unknown,
  fields: readonly string[],
  secrets: readonly string[],
  stored: Record<string, unknown> | null,
): Record<string, string> {
  const input = objectValue(name, raw);
  const out: Record<string, string> = {};
  for (const field of fields)
    out[field] = input[field] == null ? '' : textValue(`${name}.${field}`, input[field]);
  for (const field of secrets) {
    const sent = input[field] == null ? '' : textValue(`${name}.${field}`, input[field]);
    const kept = typeof stored?.[field] === 'string' ? (stored[field] as string) : '';
    out[field] = sent || kept;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Web settings

/** adminSetting/loadConfig: every setting with its effective value; secrets masked. */
export async function loadConfig(actor: Actor): Promise<Record<string, unknown>> {
  requireSiteAdmin(actor);
  const stored = await getAllSettings();
  const values = new Map(Object.entries(stored));
  const out: Record<string, unknown> = {};
  for (const key of [...SWITCHES, ...TEXTS, 'home_page', 'home_item', 'site_url'])
    out[key] =
      readAliased(values, key) ?? DEFAULTS[key] ?? (SWITCHES.includes(key as never) ? '0' : '');
  out.user_directory_open = userDirectoryOpen(values) ? '1' : '0';
  for (const key of [
    'history_version_count',
    'ai_max_message_length',
    'ai_tool_rounds',
    'session_expire_days',
    'page_quota',
  ])
    out[key] = Number(stored[key] ?? DEFAULTS[key]);
  const secrets = {
    open_ai_key: readAliased(values, 'open_ai_key') ?? '',
    ai_service_token: stored.ai_service_token ?? '',
  };
  Object.assign(out, secretFlags(secrets, SECRETS));
  // Every setting under each of its spellings too, masked alike.
  for (const [alias, name] of Object.entries(SETTING_ALIASES)) {
    out[alias] = out[name];
    if (`${name}_set` in out) out[`${alias}_set`] = out[`${name}_set`];
  }
  const oss = decodeJsonOption(stored.oss_setting);
  out.oss_setting = maskForm(oss, OSS_SECRETS) ?? { oss_type: 's3_storage', protocol: 'https' };
  return out;
}

/** adminSetting/saveConfig: validates every sent key, then stores them all (or none). */
export async function saveConfig(actor: Actor, input: ConfigInput): Promise<void> {
  requireSiteAdmin(actor);
  const stored = await getAllSettings();
  const out: Record<string, string> = {};
  input = { ...input };
  const sent = (value: unknown) => value !== undefined && value !== null;
  for (const [alias, name] of Object.entries(SETTING_ALIASES) as [SettingAlias, string][]) {
    if (!sent(input[name as keyof ConfigInput]) && sent(input[alias]))
      input[name as keyof ConfigInput] = input[alias];
    delete input[alias];
  }
  const has = (key: keyof ConfigInput) => sent(input[key]);
  for (const key of SWITCHES) if (has(key)) out[key] = switchValue(key, input[key]);
  for (const key of TEXTS) if (has(key)) out[key] = textValue(key, input[key]);
  for (const key of SECRETS) {
    const sent = has(key) ? textValue(key, input[key]) : '';
    if (sent) out[key] = sent;
  }
  if (has('site_url')) out.site_url = urlValue('site_url', input.site_url);
  if (has('open_ai_host')) out.open_ai_host = urlValue('open_ai_host', input.open_ai_host);
  if (has('ai_service_url')) out.ai_service_url = urlValue('ai_service_url', input.ai_service_url);
  if (has('history_version_count'))
    out.history_version_count = intValue(
      'history_version_count',
      input.history_version_count,
      1,
      MAX_HISTORY,
    );
  if (has('ai_max_message_length'))
    out.ai_max_message_length = intValue(
      'ai_max_message_length',
      input.ai_max_message_length,
      1,
      1_000_000,
    );
  if (has('ai_tool_rounds'))
    out.ai_tool_rounds = intValue('ai_tool_rounds', input.ai_tool_rounds, 1, 1000);
  if (has('session_expire_days'))
    out.session_expire_days = intValue('session_expire_days', input.session_expire_days, 1, 3650);
  if (has('page_quota'))
    out.page_quota = intValue('page_quota', input.page_quota, 0, MAX_PAGE_QUOTA);
  if (has('home_item')) {
    const text = textValue('home_item', input.home_item);
    if (text && !/^\d+$/.test(text)) throw bad('home_item', 'expected an item id');
    out.home_item = text;
  }
  if (has('home_page')) {
    const page = textValue('home_page', input.home_page) || '1';
    if (!['1', '2', '3', '4'].includes(page)) throw bad('home_page', 'expected 1, 2, 3 or 4');
    out.home_page = page;
  }
  const effective = (key: string) => out[key] ?? stored[key] ?? DEFAULTS[key] ?? '';
  if (has('home_page') && effective('home_page') === '3') {
    const itemId = Number(effective('home_item'));
    if (!(itemId > 0) || !(await findLiveItem(itemId)))
      throw bad('home_item', 'choose an existing item for the home page');
  }
  if (
    has('home_page') &&
    effective('home_page') === '4' &&
    effective('enable_public_square') !== '1'
  )
    throw bad('home_page', 'the public square is not enabled');
  if (has('oss_setting')) {
    const oss = mergeForm(
      'oss_setting',
      input.oss_setting,
      OSS_FIELDS,
      OSS_SECRETS,
      decodeJsonOption(stored.oss_setting),
    );
    if (oss.oss_type && !OSS_TYPES.includes(oss.oss_type as never))
      throw bad('oss_setting.oss_type', `expected one of ${OSS_TYPES.join(', ')}`);
    if (oss.protocol && !['http', 'https'].includes(oss.protocol))
      throw bad('oss_setting.protocol', 'expected http or https');
    out.oss_setting = JSON.stringify(oss);
  }
  if (out.oss_open === '1') {
    const oss = decodeJsonOption(out.oss_setting ?? stored.oss_setting);
    if (!oss?.bucket) throw bad('oss_setting', 'cloud storage needs at least a bucket');
  }
  // A value stored under a spec spelling (a ShowDoc database) must not outlive a new save.
  for (const name of Object.keys(out))
    for (const alias of aliasesOf(name)) if (stored[alias]) out[alias] = '';
  await setSettings(out);
}

// ---------------------------------------------------------------------------------------------
// External login forms

const LDAP_FIELDS = [
  'host',
  'port',
  'version',
  'base_dn',
  'bind_dn',
  'user_field',
  'name_field',
  'search_filter',
] as const;
const LDAP_DEFAULTS = { port: '389', version: '3', user_field: 'cn', search_filter: '(cn=*)' };
const OAUTH2_FIELDS = [
  'redirectUri',
  'entrance_tips',
  'client_id',
  'protocol',
  'host',
  'authorize_path',
  'token_path',
  'resource_path',
  'userinfo_path',
  'logout_redirect_uri',
  'scope',
] as const;

/** adminSetting/loadLdapConfig: the switch and the form (bind password masked). */
export async function loadLdapConfig(actor: Actor) {
  requireSiteAdmin(actor);
  const form = decodeJsonOption(await getSetting('ldap_form'));
  return {
    ldap_open: (await getSetting('ldap_open')) ?? '0',
    ldap_form: maskForm(form ? { ...LDAP_DEFAULTS, ...form } : null, ['bind_password']) ?? {
      ...LDAP_DEFAULTS,
      ...secretFlags({}, ['bind_password']),
    },
  };
}

/**
 * Checks the LDAP switch and form (blank fields take the spec's defaults, a blank bind password
 * keeps the stored one) and returns the option values to store; accounts' saveLdapConfig tries
 * the directory with them before storing.
 */
export async function prepareLdapConfig(
  actor: Actor,
  open: unknown,
  rawForm: unknown,
): Promise<Record<string, string>> {
  requireSiteAdmin(actor);
  const ldapOpen = switchValue('ldap_open', open ?? '0');
  const stored = decodeJsonOption(await getSetting('ldap_form'));
  const values: Record<string, string> = {};
  if (rawForm != null) {
    const form = mergeForm('ldap_form', rawForm, LDAP_FIELDS, ['bind_password'], stored);
    for (const [key, value] of Object.entries(LDAP_DEFAULTS)) form[key] ||= value;
    form.user_field = form.user_field.toLowerCase();
    if (!/^\d+$/.test(form.port) || Number(form.port) < 1 || Number(form.port) > 65535)
      throw bad('ldap_form.port', 'expected a port number');
    if (!['2', '3'].includes(form.version)) throw bad('ldap_form.version', 'expected 3 or 2');
    if (ldapOpen === '1' && !form.host) throw bad('ldap_form.host', 'required');
    if (ldapOpen === '1' && !form.base_dn) throw bad('ldap_form.base_dn', 'required');
    values.ldap_form = JSON.stringify(form);
  } else if (ldapOpen === '1' && !stored?.host) throw bad('ldap_form', 'required');
  values.ldap_open = ldapOpen;
  return values;
}

/** adminSetting/loadOauth2Config: the switch and the form (client secret masked). */
export async function loadOauth2Config(actor: Actor) {
  requireSiteAdmin(actor);
  const form = decodeJsonOption(await getSetting('oauth2_form'));
  return {
    oauth2_open: (await getSetting('oauth2_open')) ?? '0',
    oauth2_form: maskForm(form, ['client_secret']) ?? {
      protocol: 'https',
      ...secretFlags({}, ['client_secret']),
    },
  };
}

export async function saveOauth2Config(actor: Actor, open: unknown, rawForm: unknown) {
  requireSiteAdmin(actor);
  const oauth2Open = switchValue('oauth2_open', open ?? '0');
  const stored = decodeJsonOption(await getSetting('oauth2_form'));
  const values: Record<string, string> = {};
  if (rawForm != null) {
    const form = mergeForm('oauth2_form', rawForm, OAUTH2_FIELDS, ['client_secret'], stored);
    form.protocol ||= 'https';
    if (!['http', 'https'].includes(form.protocol))
      throw bad('oauth2_form.protocol', 'expected http or https');
    if (oauth2Open === '1')
      for (const field of ['client_id', 'host', 'authorize_path', 'token_path', 'userinfo_path'])
        if (!form[field]) throw bad(`oauth2_form.${field}`, 'required');
    values.oauth2_form = JSON.stringify(form);
  } else if (oauth2Open === '1' && !stored?.client_id) throw bad('oauth2_form', 'required');
  values.oauth2_open = oauth2Open;
  await setSettings(values);
}

// ---------------------------------------------------------------------------------------------
// Generic-access login secret key

function newSecretKey(): string {
  return randomBytes(16).toString('hex');
}

/** adminSetting/getLoginSecretKey: the key signing generic-access login links (made on demand). */
export async function getLoginSecretKey(actor: Actor): Promise<{ login_secret_key: string }> {
  requireSiteAdmin(actor);
  const stored = await getSetting('login_secret_key');
  if (stored) return { login_secret_key: stored };
  const key = newSecretKey();
  await setSettings({ login_secret_key: key });
  return { login_secret_key: key };
}

/** adminSetting/resetLoginSecretKey: a new key; links signed with the old one stop working. */
export async function resetLoginSecretKey(actor: Actor): Promise<{ login_secret_key: string }> {
  requireSiteAdmin(actor);
  const key = newSecretKey();
  await setSettings({ login_secret_key: key });
  return { login_secret_key: key };
}
