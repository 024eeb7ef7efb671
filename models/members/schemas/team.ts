/** ShowDoc's `team`: a named set of users (team_member) bound to a set of items (team_item). */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface TeamDoc {
  id: number;
  team_name: string;
  /** Creator (the team owner). */
  uid: number;
  username: string;
  addtime: number;
  last_update_time: number;
}

const teamSchema = new Schema<TeamDoc>(
  {
    id: { type: Number, required: true },
    team_name: { type: String, default: '' },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    addtime: { type: Number, required: true },
    last_update_time: { type: Number, default: 0 },
  },
  { collection: 'team', versionKey: false },
);

teamSchema.index({ id: 1 }, { unique: true });
teamSchema.index({ uid: 1 });

export const Team = defineModel<TeamDoc>('Team', teamSchema);
