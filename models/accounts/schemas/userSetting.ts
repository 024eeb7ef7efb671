/**
 * ShowDoc's `user_setting` table: per-user key/value settings (today only `push_url`, the
 * address notifications are pushed to). `addtime` is a datetime string, as ShowDoc stores it.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface UserSettingDoc {
  uid: number;
  key_name: string;
  key_value: string;
  addtime: string;
}

const userSettingSchema = new Schema<UserSettingDoc>(
  {
    uid: { type: Number, required: true },
    key_name: { type: String, required: true },
    key_value: { type: String, default: '' },
    addtime: { type: String, default: '' },
  },
  { collection: 'user_setting', versionKey: false },
);

userSettingSchema.index({ uid: 1, key_name: 1 }, { unique: true });

export const UserSetting = defineModel<UserSettingDoc>('UserSetting', userSettingSchema);
