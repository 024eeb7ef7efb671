/**
 * Short-lived, single-use tickets of external login: an OAuth2 `state` waiting for its callback,
 * a login code waiting for the token-login bridge, and the signatures of secret-key links already
 * used. `key` is the SHA-256 of the ticket's value (the value itself is never stored); a ticket is
 * consumed by deleting it, so two requests can never both use one. A TTL index drops old rows.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ExtLoginTicketDoc {
  key: string;
  kind: 'oauth2_state' | 'login_code' | 'secret_link';
  /** The user a login code logs in (0 for the other kinds). */
  uid: number;
  /** Where the browser goes after login (a same-site path). */
  redirect: string;
  expires_at: Date;
}

const extLoginTicketSchema = new Schema<ExtLoginTicketDoc>(
  {
    key: { type: String, required: true },
    kind: { type: String, required: true },
    uid: { type: Number, default: 0 },
    redirect: { type: String, default: '' },
    expires_at: { type: Date, required: true },
  },
  { collection: 'ext_login_ticket', versionKey: false },
);

extLoginTicketSchema.index({ key: 1 }, { unique: true });
extLoginTicketSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export const ExtLoginTicket = defineModel<ExtLoginTicketDoc>(
  'ExtLoginTicket',
  extLoginTicketSchema,
);
