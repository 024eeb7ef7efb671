/**
 * The member rows the access policy reads (models/access fills its read model through this port;
 * the index plugs it in), so access never names these collections.
 */
import type { MembershipSource } from '../access';
import { ItemMember, TeamItemMember } from './schemas';

const GRANT = { member_group_id: 1, cat_id: 1, cat_ids: 1, _id: 0 } as const;
const AUTHORITY = { item_id: 1, member_group_id: 1, _id: 0 } as const;

export const memberRowsForAccess: MembershipSource = {
  async rowsOf(itemId, uid) {
    const [personal, teams] = await Promise.all([
      ItemMember.findOne({ item_id: itemId, uid }, GRANT).lean(),
      TeamItemMember.find({ item_id: itemId, member_uid: uid }, GRANT).lean(),
    ]);
    return { personal: personal ?? null, teams };
  },
  async rowsOfMany(itemId, uids) {
    const [personal, teams] = await Promise.all([
      ItemMember.find({ item_id: itemId, uid: { $in: uids } }, { ...GRANT, uid: 1 }).lean(),
      TeamItemMember.find(
        { item_id: itemId, member_uid: { $in: uids } },
        { ...GRANT, member_uid: 1 },
      ).lean(),
    ]);
    return { personal, teams };
  },
  async itemsOf(uid) {
    const [personal, teams] = await Promise.all([
      ItemMember.find({ uid }, AUTHORITY).lean(),
      TeamItemMember.find({ member_uid: uid }, AUTHORITY).lean(),
    ]);
    return { personal, teams };
  },
};
