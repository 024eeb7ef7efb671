/**
 * ShowDoc's `kanban_activity_log`: one row per board event (task created, moved, completed…,
 * list created, archived…). `event_data` is the event's JSON text, as ShowDoc stores it.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface KanbanActivityDoc {
  id: number;
  item_id: number;
  page_id: number;
  event_type: string;
  event_data: string;
  operator_uid: number;
  addtime: number;
}

const kanbanActivitySchema = new Schema<KanbanActivityDoc>(
  {
    id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    page_id: { type: Number, default: 0 },
    event_type: { type: String, required: true },
    event_data: { type: String, default: '{}' },
    operator_uid: { type: Number, default: 0 },
    addtime: { type: Number, required: true },
  },
  { collection: 'kanban_activity_log', versionKey: false },
);

kanbanActivitySchema.index({ id: 1 }, { unique: true });
kanbanActivitySchema.index({ item_id: 1, addtime: -1 });

export const KanbanActivity = defineModel<KanbanActivityDoc>(
  'KanbanActivity',
  kanbanActivitySchema,
);
