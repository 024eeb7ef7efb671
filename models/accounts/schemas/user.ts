/**
 * ShowDoc's `user` table. Times are Unix seconds; `groupid` 1 = site admin, 2 = ordinary user.
 * `password` is a bcrypt hash (or a legacy ShowDoc MD5 hash with its `salt`, upgraded on login);
 * it and `salt` must never leave models/.
 */
import { Schema, type HydratedDocument } from 'mongoose';
import { defineModel } from '../../platform';

export const ADMIN_GROUP = 1;
export const USER_GROUP = 2;

export interface UserDoc {
  uid: number;
  username: string;
  groupid: number;
  name: string;
  avatar: string;
  avatar_small: string;
  email: string;
  mobile: string;
  password: string;
  salt: string;
  /** 1 when the account came from LDAP / OAuth2 / CAS / secret-key login. */
  is_sso: number;
  reg_time: number;
  last_login_time: number;
}

const userSchema = new Schema<UserDoc>(
  {
    uid: { type: Number, required: true },
    username: { type: String, required: true },
    groupid: { type: Number, required: true, default: USER_GROUP, enum: [ADMIN_GROUP, USER_GROUP] },
    name: { type: String, default: '' },
    avatar: { type: String, default: '' },
    avatar_small: { type: String, default: '' },
    email: { type: String, default: '' },
    mobile: { type: String, default: '' },
    password: { type: String, required: true },
    salt: { type: String, default: '' },
    is_sso: { type: Number, default: 0 },
    reg_time: { type: Number, required: true },
    last_login_time: { type: Number, default: 0 },
  },
  { collection: 'user', versionKey: false },
);

userSchema.index({ uid: 1 }, { unique: true });
userSchema.index({ username: 1 }, { unique: true });
// Login accepts a verified e-mail in place of the username; member/attorn look users up by it.
userSchema.index({ email: 1 });

export const User = defineModel<UserDoc>('User', userSchema);
export type UserDocument = HydratedDocument<UserDoc>;
