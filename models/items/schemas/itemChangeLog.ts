/**
 * ShowDoc's `item_change_log`: who did what in an item (reference accounts §7). `optime` is a
 * datetime string as ShowDoc stores it. The newest 300 rows per item are kept (models/changeLog.ts).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const CHANGE_ACTIONS = [
  'create',
  'update',
  'delete',
  'export',
  'binding',
  'unbound',
  'drag',
] as const;
export const CHANGE_OBJECTS = ['page', 'catalog', 'item', 'team', 'member', 'tree'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];
export type ChangeObject = (typeof CHANGE_OBJECTS)[number];

export interface ItemChangeLogDoc {
  id: number;
  uid: number;
  item_id: number;
  op_action_type: ChangeAction;
  op_object_type: ChangeObject;
  op_object_id: number;
  op_object_name: string;
  remark: string;
  optime: string;
}

const itemChangeLogSchema = new Schema<ItemChangeLogDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    item_id: { type: Number, required: true },
    op_action_type: { type: String, required: true, enum: CHANGE_ACTIONS },
    op_object_type: { type: String, required: true, enum: CHANGE_OBJECTS },
    op_object_id: { type: Number, default: 0 },
    op_object_name: { type: String, default: '' },
    remark: { type: String, default: '' },
    optime: { type: String, default: '' },
  },
  { collection: 'item_change_log', versionKey: false },
);

itemChangeLogSchema.index({ id: 1 }, { unique: true });
// Listing newest first and trimming to the newest 300 both walk this index.
itemChangeLogSchema.index({ item_id: 1, id: -1 });

export const ItemChangeLog = defineModel<ItemChangeLogDoc>('ItemChangeLog', itemChangeLogSchema);
