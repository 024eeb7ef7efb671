/**
 * ShowDoc's `captcha` table (reference accounts §2.8): one row per image captcha. `expire_time`
 * (Unix seconds) is what the check reads; it is set to 0 once the captcha is used. `purge_at`
 * is Quire's: a TTL index removes rows a while after they expire, so anonymous createCaptcha
 * calls cannot grow the collection for ever.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface CaptchaDoc {
  captcha_id: number;
  /** Unused by the open-source server (SMS captchas); kept for ShowDoc's column set. */
  mobile: string;
  /** The characters to type, upper case. */
  captcha: string;
  expire_time: number;
  purge_at: Date;
}

const captchaSchema = new Schema<CaptchaDoc>(
  {
    captcha_id: { type: Number, required: true },
    mobile: { type: String, default: '' },
    captcha: { type: String, required: true },
    expire_time: { type: Number, required: true },
    purge_at: { type: Date, required: true },
  },
  { collection: 'captcha', versionKey: false },
);

captchaSchema.index({ captcha_id: 1 }, { unique: true });
captchaSchema.index({ purge_at: 1 }, { expireAfterSeconds: 0 });

export const Captcha = defineModel<CaptchaDoc>('Captcha', captchaSchema);
