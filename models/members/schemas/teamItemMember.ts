/**
 * ShowDoc's `team_item_member`: a team member's access to one item the team is bound to, with
 * its own authority (0 read-only, 1 edit, 2 item admin) and catalog restriction.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface TeamItemMemberDoc {
  id: number;
  team_id: number;
  item_id: number;
  member_group_id: number;
  member_uid: number;
  member_username: string;
  addtime: number;
  last_update_time: number;
  cat_id: number;
  cat_ids: number[];
}

const teamItemMemberSchema = new Schema<TeamItemMemberDoc>(
  {
    id: { type: Number, required: true },
    team_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    member_group_id: { type: Number, default: 1, enum: [0, 1, 2] },
    member_uid: { type: Number, required: true },
    member_username: { type: String, default: '' },
    addtime: { type: Number, required: true },
    last_update_time: { type: Number, default: 0 },
    cat_id: { type: Number, default: 0 },
    cat_ids: { type: [Number], default: [] },
  },
  { collection: 'team_item_member', versionKey: false },
);

teamItemMemberSchema.index({ id: 1 }, { unique: true });
teamItemMemberSchema.index({ item_id: 1, member_uid: 1 });
teamItemMemberSchema.index({ member_uid: 1 });
teamItemMemberSchema.index({ team_id: 1, item_id: 1 });

export const TeamItemMember = defineModel<TeamItemMemberDoc>(
  'TeamItemMember',
  teamItemMemberSchema,
);
