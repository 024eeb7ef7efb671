/**
 * LDAP login (reference accounts §9.25, spec 002 §3): when `ldap_open` is on, a password login
 * the local accounts refuse is tried against the directory. The service account (bind_dn /
 * bind_password) searches `base_dn` with `search_filter` narrowed to the username, then the found
 * entry's DN is bound with the typed password. Success logs in the local user of that name,
 * created on first login (random local password, `is_sso` 1, name from `name_field`).
 *
 * Departures from ShowDoc, for safety: a directory entry never logs in as a local administrator
 * (ShowDoc matched any local user by name, admins included); the local password is left alone
 * (ShowDoc overwrote it with the LDAP one); TLS certificates are checked on ldaps.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Client } from 'ldapts';
import type { Actor } from '../access';
import { addressPolicy, errors, isAddressRefusal, resolveChecked } from '../platform';
import { decodeJsonOption, getSetting, prepareLdapConfig, setSettings } from '../settings';
import { ADMIN_GROUP, User, type UserDoc } from './schemas/user';
import { createUser, userChanged } from './users';

const TIMEOUT_MS = 5000;
const USER_PLACEHOLDER = '%(user)s';

export interface LdapForm {
  host: string;
  port: number;
  version: number;
  base_dn: string;
  bind_dn: string;
  bind_password: string;
  user_field: string;
  name_field: string;
  search_filter: string;
}

/** The stored LDAP form when LDAP login is on, else null. */
export async function ldapFormIfOpen(): Promise<LdapForm | null> {
  if ((await getSetting('ldap_open')) !== '1') return null;
  return ldapFormOf(decodeJsonOption(await getSetting('ldap_form')));
}

function ldapFormOf(form: Record<string, unknown> | null): LdapForm | null {
  if (!form || typeof form.host !== 'string' || !form.host) return null;
  const text = (key: string, fallback = '') =>
    typeof form[key] === 'string' && form[key] ? (form[key] as string) : fallback;
  return {
    host: text('host'),
    port: Number(form.port) || 389,
    version: Number(form.version) === 2 ? 2 : 3,
    base_dn: text('base_dn'),
    bind_dn: text('bind_dn'),
    bind_password: text('bind_password'),
    user_field: text('user_field', 'cn').toLowerCase(),
    name_field: text('name_field'),
    search_filter: text('search_filter', '(cn=*)'),
  };
}

/** The filter for one user: the placeholder filled (escaped), or the filter AND user_field=name. */
async function userFilter(form: LdapForm, username: string): Promise<string> {
  const { EqualityFilter } = await import('ldapts');
  const match = new EqualityFilter({ attribute: form.user_field, value: username }).toString();
  if (form.search_filter.includes(USER_PLACEHOLDER)) {
    const escaped = match.slice(match.indexOf('=') + 1, -1);
    return form.search_filter.split(USER_PLACEHOLDER).join(escaped);
  }
  const base = form.search_filter.startsWith('(') ? form.search_filter : `(${form.search_filter})`;
  return `(&${base}${match})`;
}

/**
 * A directory client; ldapts loads with the first LDAP call, not when a process starts. The host
 * passes the address policy (ALLOW_PRIVATE_HOSTS for a LAN directory) and the client connects to
 * the address that was checked; on ldaps the certificate is still verified against the name.
 */
export async function clientFor(form: LdapForm): Promise<Client> {
  const target = await resolveChecked(addressPolicy('LDAP'), form.host);
  const { Client } = await import('ldapts');
  const scheme = form.port === 636 ? 'ldaps' : 'ldap';
  const host = target.family === 6 ? `[${target.address}]` : target.address;
  const named = isIP(form.host.replace(/^\[|\]$/g, '')) === 0;
  return new Client({
    url: `${scheme}://${host}:${form.port}`,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    ...(scheme === 'ldaps' && named ? { tlsOptions: { servername: form.host } } : {}),
  });
}

/** Checks the name and password against the directory: the entry's DN and name, or null. */
async function directoryCheck(
  form: LdapForm,
  username: string,
  password: string,
): Promise<{ dn: string; name: string } | null> {
  const search = await clientFor(form);
  let entry: Record<string, unknown> | undefined;
  try {
    if (form.bind_dn) await search.bind(form.bind_dn, form.bind_password);
    const { searchEntries } = await search.search(form.base_dn, {
      scope: 'sub',
      filter: await userFilter(form, username),
      sizeLimit: 2,
    });
    // An ambiguous name logs nobody in.
    if (searchEntries.length !== 1) return null;
    entry = searchEntries[0];
  } finally {
    await search.unbind().catch(() => undefined);
  }
  const user = await clientFor(form);
  try {
    await user.bind(String(entry.dn), password);
  } catch {
    return null;
  } finally {
    await user.unbind().catch(() => undefined);
  }
  const raw = form.name_field ? entry[form.name_field] : undefined;
  const name = Array.isArray(raw) ? String(raw[0] ?? '') : raw ? String(raw) : '';
  return { dn: String(entry.dn), name: name.slice(0, 64) };
}

/**
 * The local user an LDAP login with these credentials stands for (created when missing), or
 * null when LDAP is off, the directory refuses, or the name belongs to a local administrator.
 * Directory errors (unreachable, bad service account) count as a refusal.
 */
export async function loginWithLdap(username: string, password: string): Promise<UserDoc | null> {
  const form = await ldapFormIfOpen();
  if (!form || !password) return null;
  const local = await User.findOne({ username }).lean<UserDoc>();
  if (local?.groupid === ADMIN_GROUP) return null;
  let found: { dn: string; name: string } | null;
  try {
    found = await directoryCheck(form, username, password);
  } catch (error) {
    // The user learns why the directory was not asked, not which address was refused.
    if (isAddressRefusal(error))
      throw errors.ldap(
        'Login through the directory is unavailable: the site may not connect to its LDAP server (a private address). Please contact the administrator',
      );
    return null;
  }
  if (!found) return null;
  if (local) {
    const set: Partial<UserDoc> = { is_sso: 1 };
    if (found.name) set.name = found.name;
    await User.updateOne({ uid: local.uid }, { $set: set });
    userChanged(local.uid);
    return { ...local, ...set };
  }
  // A random local password: the account signs in through the directory.
  const user = await createUser({
    username,
    password: randomBytes(24).toString('hex'),
    name: found.name,
  });
  await User.updateOne({ uid: user.uid }, { $set: { is_sso: 1 } });
  userChanged(user.uid);
  return { ...user.toObject<UserDoc>(), is_sso: 1 };
}

/**
 * `adminSetting/saveLdapConfig`: checks the form, and when LDAP is being switched on, binds with
 * the service account and searches the base DN first — a directory that cannot be reached or
 * refuses the account answers 10011 and nothing is stored (ShowDoc checked the same).
 */
export async function saveLdapConfig(actor: Actor, open: unknown, rawForm: unknown): Promise<void> {
  const values = await prepareLdapConfig(actor, open, rawForm);
  if (values.ldap_open === '1') {
    const form = ldapFormOf(decodeJsonOption(values.ldap_form ?? (await getSetting('ldap_form'))));
    if (!form) throw errors.ldap('The LDAP settings are incomplete');
    const client = await clientFor(form);
    try {
      if (form.bind_dn) await client.bind(form.bind_dn, form.bind_password);
      await client.search(form.base_dn, { scope: 'base', sizeLimit: 1 });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw errors.ldap(`The LDAP server refused the settings: ${reason}`);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
  await setSettings(values);
}
