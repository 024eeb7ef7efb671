/** ShowDoc's `team_item`: an item bound to a team (its members get team_item_member rows). */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface TeamItemDoc {
  id: number;
  team_id: number;
  item_id: number;
  addtime: number;
  last_update_time: number;
}

const teamItemSchema = new Schema<TeamItemDoc>(
  {
    id: { type: Number, required: true },
    team_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    addtime: { type: Number, required: true },
    last_update_time: { type: Number, default: 0 },
  },
  { collection: 'team_item', versionKey: false },
);

teamItemSchema.index({ id: 1 }, { unique: true });
teamItemSchema.index({ team_id: 1, item_id: 1 }, { unique: true });
teamItemSchema.index({ item_id: 1 });

export const TeamItem = defineModel<TeamItemDoc>('TeamItem', teamItemSchema);
