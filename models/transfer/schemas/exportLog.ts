/**
 * ShowDoc's `export_log`: one row per finished export, counted per user and day to cap how often
 * one account may build the heavy offline packages. `addtime` is the formatted server-zone time
 * (`YYYY-MM-DD HH:MM:SS`), so "today" is a string prefix, as ShowDoc counts it.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ExportLogDoc {
  uid: number;
  export_type: string;
  item_id: number;
  addtime: string;
}

const exportLogSchema = new Schema<ExportLogDoc>(
  {
    uid: { type: Number, required: true },
    export_type: { type: String, required: true },
    item_id: { type: Number, default: 0 },
    addtime: { type: String, required: true },
  },
  { collection: 'export_log', versionKey: false },
);

// The daily count reads one user's rows of one type from today on.
exportLogSchema.index({ uid: 1, export_type: 1, addtime: 1 });

export const ExportLog = defineModel<ExportLogDoc>('ExportLog', exportLogSchema);
