/**
 * `adminUser/deleteUser` (reference accounts §9.21): the account goes with its memberships, which
 * the members domain keeps, so it is composed here from the accounts, items and members faces.
 *
 * Departures from ShowDoc, for safety: an administrator and the caller themself are never
 * deleted, and neither is a user who still owns items or teams (ShowDoc refused only for items,
 * leaving teams without an owner): transfer them first. Nothing of anyone else is lost this way.
 */
import { requireSiteAdmin, type Actor } from '../access';
import { eraseUserRows, requireDeletableUser, userErased } from '../accounts';
import { ownsLiveItems } from '../items';
import { dropMembershipsOf, ownsTeams } from '../members';
import { connection, errors, events } from '../platform';

/**
 * Removes an ordinary user who owns nothing, with their memberships and tokens, in one
 * transaction (a crash never leaves memberships of a user that is gone).
 */
export async function deleteUserAccount(actor: Actor, uid: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!(uid > 0)) throw errors.failed('Parameter error: uid');
  if (uid === actor.uid) throw errors.failed('You cannot delete your own account');
  await requireDeletableUser(uid);
  if (await ownsLiveItems(uid))
    throw errors.failed('This user still owns items: transfer or delete them first');
  if (await ownsTeams(uid))
    throw errors.failed('This user still owns teams: transfer or delete them first');
  const itemIds = await connection().transaction(async () => {
    const memberOf = await dropMembershipsOf(uid);
    await eraseUserRows(uid);
    return memberOf;
  });
  userErased(uid);
  for (const itemId of itemIds)
    events.publish('membership.changed', {
      itemId,
      uids: [uid],
      change: 'removed',
      byUid: actor.uid,
    });
}
