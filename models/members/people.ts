/**
 * `user/allUser`, the member pickers' list (issue 32). ShowDoc's "add member" dialog asks once
 * with an empty `username` and filters the answer in the browser, so an empty or short query
 * must list someone. It lists:
 * - everyone, for a site admin, or when the site setting `user_directory_open` is on (ShowDoc's
 *   behaviour; on by default while registration is closed: a closed team's site);
 * - otherwise the people the caller already works with — owners and members of the items the
 *   caller owns or belongs to, owners and members of the caller's teams — so an open site's
 *   directory still cannot be read by a stranger who just registered.
 * A short query narrows that list by prefix and also finds the one account with exactly that
 * username; a longer one is the throttled prefix search over everybody (accounts.searchUsers).
 */
import { isSiteAdmin, type Actor } from '../access';
import {
  MAX_USER_SEARCH_LENGTH,
  searchUsers,
  USER_SEARCH_MIN_PREFIX,
  type UserSummary,
} from '../accounts';
import { User } from '../accounts';
import { Item } from '../items';
import { throttle } from '../platform';
import { getSiteSettings } from '../settings';
import { ItemMember, Team, TeamItemMember, TeamMember } from './schemas';

/** The most rows one answer lists: the picker filters in the browser, so this bounds a page. */
export const PEOPLE_LIMIT = 5000;

/** A picker row as ShowDoc sends it (uid as text), plus `value`: the username (seed 000 §7). */
export interface PersonOption {
  uid: string;
  username: string;
  name: string;
  value: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Uids of the people `uid` already works with through items and teams (not `uid` itself). */
export async function coworkerUids(uid: number): Promise<number[]> {
  const [owned, memberOf, teamMemberOf, ownTeams, inTeams] = await Promise.all([
    Item.find({ uid, is_del: 0 }, { item_id: 1, _id: 0 }).lean(),
    ItemMember.find({ uid }, { item_id: 1, _id: 0 }).lean(),
    TeamItemMember.find({ member_uid: uid }, { item_id: 1, _id: 0 }).lean(),
    Team.find({ uid }, { id: 1, _id: 0 }).lean(),
    TeamMember.find({ member_uid: uid }, { team_id: 1, _id: 0 }).lean(),
  ]);
  const itemIds = [...new Set([...owned, ...memberOf, ...teamMemberOf].map((r) => r.item_id))];
  const teamIds = [...new Set([...ownTeams.map((t) => t.id), ...inTeams.map((t) => t.team_id)])];
  const [owners, members, teamItemMembers, teamOwners, teamMembers] = await Promise.all([
    itemIds.length
      ? Item.find({ item_id: { $in: itemIds }, is_del: 0 }, { uid: 1, _id: 0 }).lean()
      : [],
    itemIds.length ? ItemMember.find({ item_id: { $in: itemIds } }, { uid: 1, _id: 0 }).lean() : [],
    itemIds.length
      ? TeamItemMember.find({ item_id: { $in: itemIds } }, { member_uid: 1, _id: 0 }).lean()
      : [],
    teamIds.length ? Team.find({ id: { $in: teamIds } }, { uid: 1, _id: 0 }).lean() : [],
    teamIds.length
      ? TeamMember.find({ team_id: { $in: teamIds } }, { member_uid: 1, _id: 0 }).lean()
      : [],
  ]);
  const uids = new Set<number>([
    ...owners.map((r) => r.uid),
    ...members.map((r) => r.uid),
    ...teamItemMembers.map((r) => r.member_uid),
    ...teamOwners.map((r) => r.uid),
    ...teamMembers.map((r) => r.member_uid),
  ]);
  uids.delete(uid);
  return [...uids].filter((n) => n > 0);
}

/** `user/allUser`: the rows a member picker offers for `term` (see the module comment). */
export async function pickablePeople(actor: Actor, term: string): Promise<PersonOption[]> {
  const text = [...term.trim()].slice(0, MAX_USER_SEARCH_LENGTH).join('');
  let found: UserSummary[];
  if ([...text].length >= USER_SEARCH_MIN_PREFIX) found = await searchUsers(actor.uid, text);
  else {
    // Short probes are counted like searches; the empty query the dialog opens with is not.
    if (text) await throttle('userSearch', String(actor.uid));
    const everyone = isSiteAdmin(actor) || (await getSiteSettings()).userDirectoryOpen;
    const filter: Record<string, unknown> = everyone
      ? {}
      : { uid: { $in: await coworkerUids(actor.uid) } };
    if (text) filter.username = { $regex: `^${escapeRegExp(text)}`, $options: 'i' };
    const [listed, exact] = await Promise.all([
      User.find(filter, { uid: 1, username: 1, name: 1, _id: 0 })
        .sort({ uid: 1 })
        .limit(PEOPLE_LIMIT)
        .lean(),
      // The one account named exactly so, as before: adding a known username keeps working.
      text && !everyone
        ? User.find(
            { username: { $regex: `^${escapeRegExp(text)}$`, $options: 'i' } },
            { uid: 1, username: 1, name: 1, _id: 0 },
          ).lean()
        : [],
    ]);
    const byUid = new Map<number, UserSummary>();
    for (const row of [...exact, ...listed])
      byUid.set(row.uid, { uid: row.uid, username: row.username, name: row.name ?? '' });
    found = [...byUid.values()].sort((a, b) => a.uid - b.uid);
  }
  return found.map((u) => ({
    uid: String(u.uid),
    username: u.username,
    name: u.name,
    value: u.username,
  }));
}
