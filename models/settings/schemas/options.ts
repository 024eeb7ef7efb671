/**
 * ShowDoc's `options` table: site-wide settings as name → string value (reference accounts §6).
 * Read through models/settings.ts, which knows each option's type and effective default; the
 * first-start bootstrap also keeps its marker row here.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface OptionDoc {
  option_name: string;
  /** Always a string, as in ShowDoc ("1"/"0" flags, numbers, JSON forms). */
  option_value: string;
}

const optionSchema = new Schema<OptionDoc>(
  {
    option_name: { type: String, required: true },
    option_value: { type: String, default: '' },
  },
  { collection: 'options', versionKey: false },
);

optionSchema.index({ option_name: 1 }, { unique: true });

export const Option = defineModel<OptionDoc>('Option', optionSchema);
