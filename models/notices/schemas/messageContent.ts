/**
 * ShowDoc's `message_content` (reference accounts §7, §9.20): the text of a notice. A reminder
 * (`remind`) says who (`from_uid`, `from_name`) did what (`action_type`) to which object
 * (`object_type`, `object_id`); an announcement (`announce*`) is a site-wide text from an admin.
 * Quire writes one content row per event and one `message` row per recipient (ShowDoc wrote a
 * content row per recipient). `addtime` is a datetime string, as ShowDoc stores it.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const REMIND = 'remind';
/** Announcement kinds: legacy, web client only, RunApi client only, both. */
export const ANNOUNCE_TYPES = [
  'announce',
  'announce_web',
  'announce_runapi',
  'announce_all',
] as const;
export type AnnounceType = (typeof ANNOUNCE_TYPES)[number];

export interface MessageContentDoc {
  id: number;
  from_uid: number;
  from_name: string;
  message_type: string;
  message_content: string;
  action_type: string;
  object_type: string;
  object_id: number;
  addtime: string;
}

const messageContentSchema = new Schema<MessageContentDoc>(
  {
    id: { type: Number, required: true },
    from_uid: { type: Number, default: 0 },
    from_name: { type: String, default: '' },
    message_type: { type: String, required: true },
    message_content: { type: String, default: '' },
    action_type: { type: String, default: '' },
    object_type: { type: String, default: '' },
    object_id: { type: Number, default: 0 },
    addtime: { type: String, required: true },
  },
  { collection: 'message_content', versionKey: false },
);

messageContentSchema.index({ id: 1 }, { unique: true });
// Announcement lists (by type, newest first; the registration-time filter reads addtime).
messageContentSchema.index({ message_type: 1, id: -1 });

export const MessageContent = defineModel<MessageContentDoc>(
  'MessageContent',
  messageContentSchema,
);
