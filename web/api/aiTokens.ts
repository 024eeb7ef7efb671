/** AI tokens for the MCP endpoint (`ai_token/*`, ShowDoc's AiTokenController). */
import { request } from './request';

export interface AiToken {
  id: number;
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  /** JSON text of the item ids (ShowDoc's column). */
  allowed_items: string;
  can_create_item: number;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  is_active: number;
  /** The token masked: its head and tail only. */
  token_preview: string;
  is_expired: number;
}

export interface AiTokenInput {
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  allowed_items: number[];
  /** `YYYY-MM-DD`, '' for none. */
  expires_at: string;
}

export const listAiTokens = () =>
  request<{ tokens: AiToken[]; total: number }>('ai_token/list', {});

/** The raw token is in this answer only. */
export const createAiToken = (input: AiTokenInput) =>
  request<{ token: string; id: number }>('ai_token/create', {
    ...input,
    allowed_items: JSON.stringify(input.allowed_items),
  });

/** A new raw token (shown once); the old one stops working. */
export const resetAiToken = (id: number) => request<{ token: string }>('ai_token/reset', { id });

export const revokeAiToken = (id: number) => request<unknown>('ai_token/revoke', { id });

export const deleteAiToken = (id: number) => request<unknown>('ai_token/delete', { id });

export const aiTokenItems = () =>
  request<{ items: Array<{ item_id: number; item_name: string }> }>('ai_token/availableItems', {});
