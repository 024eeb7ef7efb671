/**
 * ShowDoc's `message` (reference accounts §7, §9.20): one notice for one recipient. For a
 * reminder it is the delivery (`status` 0 unread, 1 read, −1 deleted); for an announcement it is
 * the recipient's read marker (`status` 1, `from_uid` 0), written when they read it. Times are
 * datetime strings, as ShowDoc stores them.
 *
 * One row per (recipient, content): a reminder's content row is written per event and delivered
 * once to each recipient, and an announcement has at most one read marker per user. The unique
 * index makes marking read idempotent under concurrent calls.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const UNREAD = 0;
export const READ = 1;
export const DELETED = -1;

export interface MessageDoc {
  id: number;
  from_uid: number;
  to_uid: number;
  message_type: string;
  message_content_id: number;
  status: number;
  addtime: string;
  readtime: string;
}

const messageSchema = new Schema<MessageDoc>(
  {
    id: { type: Number, required: true },
    from_uid: { type: Number, default: 0 },
    to_uid: { type: Number, required: true },
    message_type: { type: String, required: true },
    message_content_id: { type: Number, required: true },
    status: { type: Number, default: UNREAD, enum: [UNREAD, READ, DELETED] },
    addtime: { type: String, default: '' },
    readtime: { type: String, default: '' },
  },
  { collection: 'message', versionKey: false },
);

messageSchema.index({ id: 1 }, { unique: true });
// setRead / delete by content, and the one-row-per-recipient rule.
messageSchema.index({ to_uid: 1, message_content_id: 1 }, { unique: true });
// Reminder list (newest first) and announcement read markers of a user.
messageSchema.index({ to_uid: 1, message_type: 1, id: -1 });
// Unread counts and the latest unread reminder.
messageSchema.index({ to_uid: 1, message_type: 1, status: 1, id: -1 });

export const Message = defineModel<MessageDoc>('Message', messageSchema);
