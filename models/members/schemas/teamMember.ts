/**
 * ShowDoc's `team_member`: a user in a team. `team_member_group_id`: 1 ordinary member, 2 team
 * admin (may manage the team like its creator, except delete and transfer).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const TEAM_MEMBER = 1;
export const TEAM_ADMIN = 2;

export interface TeamMemberDoc {
  id: number;
  team_id: number;
  member_uid: number;
  member_username: string;
  team_member_group_id: number;
  addtime: number;
  last_update_time: number;
}

const teamMemberSchema = new Schema<TeamMemberDoc>(
  {
    id: { type: Number, required: true },
    team_id: { type: Number, required: true },
    member_uid: { type: Number, required: true },
    member_username: { type: String, default: '' },
    team_member_group_id: { type: Number, default: TEAM_MEMBER, enum: [TEAM_MEMBER, TEAM_ADMIN] },
    addtime: { type: Number, required: true },
    last_update_time: { type: Number, default: 0 },
  },
  { collection: 'team_member', versionKey: false },
);

teamMemberSchema.index({ id: 1 }, { unique: true });
teamMemberSchema.index({ team_id: 1, member_uid: 1 }, { unique: true });
teamMemberSchema.index({ member_uid: 1 });

export const TeamMember = defineModel<TeamMemberDoc>('TeamMember', teamMemberSchema);
