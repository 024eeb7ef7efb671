/**
 * `item/exitItem`: a member leaves an item (reference accounts §9.16).
 */
import type { Actor } from '../access';
import { errors, events } from '../platform';
import { ItemMember, TeamItemMember, TeamMember } from './schemas';

/**
 * Leaves an item: drops the caller's personal membership, and — when they reached it through a
 * team — leaves that whole team (its membership and all its item access), as ShowDoc does.
 */
export async function exitItem(actor: Actor, itemId: number): Promise<void> {
  const [personal, teamRows] = await Promise.all([
    ItemMember.findOneAndDelete({ item_id: itemId, uid: actor.uid }).lean(),
    TeamItemMember.find({ item_id: itemId, member_uid: actor.uid }, { team_id: 1, _id: 0 }).lean(),
  ]);
  const teamIds = [...new Set(teamRows.map((r) => r.team_id))];
  if (!personal && !teamIds.length) throw errors.failed('You are not a member of this item');
  const touched = new Set<number>(personal ? [itemId] : []);
  for (const teamId of teamIds) {
    const rows = await TeamItemMember.find(
      { team_id: teamId, member_uid: actor.uid },
      { item_id: 1, _id: 0 },
    ).lean();
    rows.forEach((r) => touched.add(r.item_id));
    await TeamItemMember.deleteMany({ team_id: teamId, member_uid: actor.uid });
    await TeamMember.deleteMany({ team_id: teamId, member_uid: actor.uid });
  }
  for (const id of touched)
    events.publish('membership.changed', {
      itemId: id,
      uids: [actor.uid],
      change: 'removed',
      byUid: actor.uid,
    });
}
