/**
 * What the back office (models/backOffice) asks of members: member counts for the item list, and
 * the member rows that go with a deleted user or a purged item (inside the caller's transaction).
 */
import { ItemMember, Team, TeamItem, TeamItemMember, TeamMember } from './schemas';

/** Personal and team member rows per item. */
export async function memberCountsOf(itemIds: number[]): Promise<Map<number, number>> {
  const [personal, team] = await Promise.all([
    ItemMember.find({ item_id: { $in: itemIds } }, { item_id: 1, _id: 0 }).lean(),
    TeamItemMember.find({ item_id: { $in: itemIds } }, { item_id: 1, _id: 0 }).lean(),
  ]);
  const counts = new Map<number, number>();
  for (const row of [...personal, ...team])
    counts.set(row.item_id, (counts.get(row.item_id) ?? 0) + 1);
  return counts;
}

export async function ownsTeams(uid: number): Promise<boolean> {
  return (await Team.exists({ uid })) !== null;
}

/** Removes every member row of the user; the items they were a member of. */
export async function dropMembershipsOf(uid: number): Promise<number[]> {
  const itemIds = new Set<number>();
  for (const row of await ItemMember.find({ uid }, { item_id: 1, _id: 0 }).lean())
    itemIds.add(row.item_id);
  for (const row of await TeamItemMember.find({ member_uid: uid }, { item_id: 1, _id: 0 }).lean())
    itemIds.add(row.item_id);
  await ItemMember.deleteMany({ uid });
  await TeamItemMember.deleteMany({ member_uid: uid });
  await TeamMember.deleteMany({ member_uid: uid });
  return [...itemIds];
}

/** The item's member rows and team bindings go; the users who were its members. */
export async function purgeItemMembers(itemId: number): Promise<number[]> {
  const members = await ItemMember.find({ item_id: itemId }, { uid: 1, _id: 0 }).lean();
  const teamMembers = await TeamItemMember.find(
    { item_id: itemId },
    { member_uid: 1, _id: 0 },
  ).lean();
  await ItemMember.deleteMany({ item_id: itemId });
  await TeamItemMember.deleteMany({ item_id: itemId });
  await TeamItem.deleteMany({ item_id: itemId });
  return [...new Set([...members.map((m) => m.uid), ...teamMembers.map((m) => m.member_uid)])];
}
