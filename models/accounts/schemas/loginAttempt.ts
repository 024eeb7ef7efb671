/**
 * Failed password logins per account (reference accounts §2.6). ShowDoc kept this counter in a
 * cache; Quire keeps it in the database so every API process sees the same count. `key` is the
 * lower-cased username. A TTL index on `purge_at` drops rows once they no longer matter.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface LoginAttemptDoc {
  key: string;
  /** Failures since the count (re)started. */
  failures: number;
  /** Unix seconds of the latest failure. */
  last_failure: number;
  /** Unix seconds until which logins are refused (0 = not locked). */
  locked_until: number;
  purge_at: Date;
}

const loginAttemptSchema = new Schema<LoginAttemptDoc>(
  {
    key: { type: String, required: true },
    failures: { type: Number, default: 0 },
    last_failure: { type: Number, default: 0 },
    locked_until: { type: Number, default: 0 },
    purge_at: { type: Date, required: true },
  },
  { collection: 'login_attempt', versionKey: false },
);

loginAttemptSchema.index({ key: 1 }, { unique: true });
loginAttemptSchema.index({ purge_at: 1 }, { expireAfterSeconds: 0 });

export const LoginAttempt = defineModel<LoginAttemptDoc>('LoginAttempt', loginAttemptSchema);
