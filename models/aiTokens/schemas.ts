/**
 * ShowDoc's `user_ai_token`: a user's access tokens for the MCP endpoint. Quire keeps only the
 * token's SHA-256 (the raw token is shown once, at creation or reset) and the preview ShowDoc
 * lists (`ai_ab***123456`). Times are `YYYY-MM-DD HH:MM:SS` strings as ShowDoc stores them;
 * `expires_time` / `last_used_time` are their Unix seconds for comparisons.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../platform';

export interface UserAiTokenDoc {
  id: number;
  uid: number;
  token_hash: string;
  token_preview: string;
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  allowed_items: number[];
  can_create_item: number;
  can_delete_item: number;
  auto_add_created_item: number;
  /** '' = never expires. */
  expires_at: string;
  expires_time: number;
  created_at: string;
  last_used_at: string;
  last_used_time: number;
  /** 0 = revoked. */
  is_active: number;
  /**
   * 1: the agent's page edits write the text even on an item in suggest mode; 0 (default): there
   * they arrive as suggestions for review.
   */
  write_directly: number;
  /** The MCP client that last initialized with this token ("Claude", "Cursor"). */
  client_name: string;
}

const userAiTokenSchema = new Schema<UserAiTokenDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    token_hash: { type: String, required: true },
    token_preview: { type: String, default: '' },
    name: { type: String, default: '' },
    permission: { type: String, default: 'write' },
    scope: { type: String, default: 'all' },
    allowed_items: { type: [Number], default: [] },
    can_create_item: { type: Number, default: 1 },
    can_delete_item: { type: Number, default: 0 },
    auto_add_created_item: { type: Number, default: 1 },
    expires_at: { type: String, default: '' },
    expires_time: { type: Number, default: 0 },
    created_at: { type: String, default: '' },
    last_used_at: { type: String, default: '' },
    last_used_time: { type: Number, default: 0 },
    is_active: { type: Number, default: 1 },
    client_name: { type: String, default: '' },
    write_directly: { type: Number, default: 0 },
  },
  { collection: 'user_ai_token', versionKey: false },
);

userAiTokenSchema.index({ id: 1 }, { unique: true });
userAiTokenSchema.index({ token_hash: 1 }, { unique: true });
userAiTokenSchema.index({ uid: 1 });

export const UserAiToken = defineModel<UserAiTokenDoc>('UserAiToken', userAiTokenSchema);
