/**
 * ShowDoc's `user_token` table: one row per login (several devices stay logged in). Logout and
 * password changes blank `token` (set it to '') rather than deleting the row, as ShowDoc does;
 * the unique index therefore covers non-empty tokens only.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface UserTokenDoc {
  id: number;
  uid: number;
  /** 128 lowercase hex characters, or '' once revoked. */
  token: string;
  /** Unix seconds. */
  token_expire: number;
  ip: string;
  /** Unix seconds. */
  addtime: number;
}

const userTokenSchema = new Schema<UserTokenDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    token: { type: String, default: '' },
    token_expire: { type: Number, required: true },
    ip: { type: String, default: '' },
    addtime: { type: Number, required: true },
  },
  { collection: 'user_token', versionKey: false },
);

userTokenSchema.index({ id: 1 }, { unique: true });
userTokenSchema.index({ uid: 1 });
userTokenSchema.index(
  { token: 1 },
  { unique: true, partialFilterExpression: { token: { $gt: '' } } },
);
// Token creation sweeps expired rows (reference accounts §2.1).
userTokenSchema.index({ token_expire: 1 });

export const UserToken = defineModel<UserTokenDoc>('UserToken', userTokenSchema);
