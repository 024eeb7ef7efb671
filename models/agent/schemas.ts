/**
 * ShowDoc's `ai_chat_sessions` and `ai_chat_messages`: an asker's conversations with the "Ask the
 * docs" assistant. A session belongs to a user (`uid`) or, for a guest, to the browser's
 * `guest_token`; ids come from the counters as ShowDoc's autoincrement gave them. Times are Unix
 * seconds. `citations` is Quire's: the pages an answer was built from.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../platform';

export interface AiChatSessionDoc {
  id: number;
  uid: number;
  item_id: number;
  /** '' for a logged-in user's session. */
  guest_token: string;
  last_message_at: number;
  created_at: number;
  is_del: number;
}

export interface Citation {
  page_id: number;
  item_id: number;
  page_title: string;
  /** The page's last save (Unix seconds) and its version number (1 = first) when it was read. */
  addtime: number;
  version: number;
}

export interface AiChatMessageDoc {
  id: number;
  session_id: number;
  role: 'user' | 'assistant';
  content: string;
  /** 0 none, 1 helpful, 2 not helpful (ShowDoc's values). */
  feedback: number;
  created_at: number;
  citations: Citation[];
}

const sessionSchema = new Schema<AiChatSessionDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, default: 0 },
    item_id: { type: Number, default: 0 },
    guest_token: { type: String, default: '' },
    last_message_at: { type: Number, default: 0 },
    created_at: { type: Number, default: 0 },
    is_del: { type: Number, default: 0 },
  },
  { collection: 'ai_chat_sessions', versionKey: false },
);
sessionSchema.index({ id: 1 }, { unique: true });
sessionSchema.index({ uid: 1, item_id: 1, last_message_at: -1 });
sessionSchema.index({ guest_token: 1, item_id: 1, last_message_at: -1 });

const citationSchema = new Schema<Citation>(
  {
    page_id: Number,
    item_id: Number,
    page_title: String,
    addtime: Number,
    version: Number,
  },
  { _id: false },
);

const messageSchema = new Schema<AiChatMessageDoc>(
  {
    id: { type: Number, required: true },
    session_id: { type: Number, required: true },
    role: { type: String, required: true },
    content: { type: String, default: '' },
    feedback: { type: Number, default: 0 },
    created_at: { type: Number, default: 0 },
    citations: { type: [citationSchema], default: [] },
  },
  { collection: 'ai_chat_messages', versionKey: false },
);
messageSchema.index({ id: 1 }, { unique: true });
messageSchema.index({ session_id: 1, id: 1 });

export const AiChatSession = defineModel<AiChatSessionDoc>('AiChatSession', sessionSchema);
export const AiChatMessage = defineModel<AiChatMessageDoc>('AiChatMessage', messageSchema);
