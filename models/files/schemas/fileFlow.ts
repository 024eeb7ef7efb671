/**
 * ShowDoc's `file_flow`: download traffic per uploader and calendar month (`date_month`
 * `YYYY-MM` in the server time zone), reported as `used_flow_m` by attachment/getMyList.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface FileFlowDoc {
  uid: number;
  date_month: string;
  /** Bytes served this month from the user's files. */
  used: number;
}

const fileFlowSchema = new Schema<FileFlowDoc>(
  {
    uid: { type: Number, required: true },
    date_month: { type: String, required: true },
    used: { type: Number, default: 0 },
  },
  { collection: 'file_flow', versionKey: false },
);

fileFlowSchema.index({ uid: 1, date_month: 1 }, { unique: true });

export const FileFlow = defineModel<FileFlowDoc>('FileFlow', fileFlowSchema);
