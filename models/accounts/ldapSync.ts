/**
 * `adminSetting/syncLdapUsers`: creates a local account for every directory entry the stored
 * LDAP settings find that has none yet, and refreshes the display name of the existing ones —
 * ShowDoc's search rules and answer (`{ sync_count }`, the number created).
 *
 * Departures, for safety: a name that belongs (in any letter case) to a local administrator is
 * left alone and never matched; directory names Quire's username rule refuses are skipped; TLS
 * certificates are checked on ldaps; non-person entries are dropped after the search (below).
 */
import { randomBytes } from 'node:crypto';
import { requireSiteAdmin, type Actor } from '../access';
import { ApiError, errors } from '../platform';
import { clientFor, ldapFormIfOpen, type LdapForm } from './ldap';
import { getSetting } from '../settings';
import { ADMIN_GROUP, User } from './schemas/user';
import { createUser, findUserByName, userChanged, usernameTaken } from './users';

const PLACEHOLDER = /%\(user\)s/g;
const USER_CLASSES = '(|(objectClass=user)(objectClass=person)(objectClass=inetOrgPerson))';
const CONTAINER_CLASSES = new Set(['computer', 'group', 'organizationalunit']);
const NAME_MAX = 64;

/**
 * ShowDoc's sync filter: the placeholder widened to `*` and, when the filter names no object
 * class, narrowed to person-like entries. ShowDoc also put `(!(objectClass=computer))`-style
 * exclusions in the filter; directories without Active Directory's schema (OpenLDAP) evaluate
 * those to Undefined and return nothing, so Quire drops such entries after the search instead.
 */
export function syncFilter(searchFilter: string): { filter: string; dropContainers: boolean } {
  const filter = (searchFilter.trim() || '(cn=*)').replace(PLACEHOLDER, '*');
  if (/objectclass/i.test(filter)) return { filter, dropContainers: false };
  if (/^\([^&|!]/.test(filter) || filter.startsWith('(|'))
    return { filter: `(&${USER_CLASSES}${filter})`, dropContainers: true };
  if (filter.startsWith('(&'))
    return { filter: `(&${USER_CLASSES}${filter.slice(2)}`, dropContainers: true };
  return { filter, dropContainers: false };
}

function isContainer(entry: Record<string, unknown>): boolean {
  const raw = entry.objectClass ?? entry.objectclass;
  const classes = Array.isArray(raw) ? raw : [raw];
  return classes.some((value) => CONTAINER_CLASSES.has(String(value).toLowerCase()));
}

/** The first value of an attribute, its name matched case-insensitively (as ShowDoc did). */
function firstValue(entry: Record<string, unknown>, field: string): string {
  const wanted = field.toLowerCase();
  for (const [key, value] of Object.entries(entry)) {
    if (key.toLowerCase() !== wanted) continue;
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === null ? '' : String(first);
  }
  return '';
}

async function directoryEntries(form: LdapForm): Promise<Record<string, unknown>[]> {
  const client = await clientFor(form);
  try {
    try {
      if (form.bind_dn) await client.bind(form.bind_dn, form.bind_password);
    } catch {
      throw errors.ldap("Can't bind to LDAP server");
    }
    try {
      const { filter, dropContainers } = syncFilter(form.search_filter);
      const { searchEntries } = await client.search(form.base_dn, { scope: 'sub', filter });
      return dropContainers ? searchEntries.filter((entry) => !isContainer(entry)) : searchEntries;
    } catch {
      throw errors.ldap('The LDAP search failed: check the search filter');
    }
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Creates or refreshes one directory user; true when an account was created. */
async function syncEntry(username: string, name: string): Promise<boolean> {
  const local = await findUserByName(username);
  if (local) {
    if (local.groupid !== ADMIN_GROUP && name && local.name !== name) {
      await User.updateOne({ uid: local.uid }, { $set: { name } });
      userChanged(local.uid);
    }
    return false;
  }
  // A differently-cased clash nobody can be picked for: leave it to the admin.
  if (await usernameTaken(username)) return false;
  let created;
  try {
    created = await createUser({ username, password: randomBytes(24).toString('hex'), name });
  } catch (error) {
    if (error instanceof ApiError) return false; // a name Quire's username rule refuses
    throw error;
  }
  await User.updateOne({ uid: created.uid }, { $set: { is_sso: 1 } });
  userChanged(created.uid);
  return true;
}

export async function syncLdapUsers(actor: Actor): Promise<{ sync_count: number }> {
  requireSiteAdmin(actor);
  if ((await getSetting('ldap_open')) !== '1') throw errors.ldap('LDAP is not enabled');
  const form = await ldapFormIfOpen();
  if (!form) throw errors.ldap('The LDAP settings are incomplete');
  let count = 0;
  for (const entry of await directoryEntries(form)) {
    const username = firstValue(entry, form.user_field).trim();
    if (!username) continue;
    const name = form.name_field ? firstValue(entry, form.name_field).slice(0, NAME_MAX) : '';
    if (await syncEntry(username, name)) count += 1;
  }
  return { sync_count: count };
}
