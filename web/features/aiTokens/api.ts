/** AI tokens for the MCP endpoint (`ai_token/*`, ShowDoc's AiTokenController). */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';

/** A token row: `allowed_items` is JSON text of item ids, `token_preview` its head and tail. */
export type AiToken = Output<'aitoken', 'list'>['tokens'][number];

export interface AiTokenInput {
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  allowed_items: number[];
  /** `YYYY-MM-DD`, '' for none. */
  expires_at: string;
  /** 1: edits items in suggest mode directly (0: there they become suggestions). */
  write_directly: 0 | 1;
}

export const listAiTokens = () => request<Output<'aitoken', 'list'>>('ai_token/list', {});

/** The raw token is in this answer only. */
export const createAiToken = (input: AiTokenInput) =>
  request<Output<'aitoken', 'create'>>('ai_token/create', {
    ...input,
    allowed_items: JSON.stringify(input.allowed_items),
  });

/** A new raw token (shown once); the old one stops working. */
export const resetAiToken = (id: number) =>
  request<Output<'aitoken', 'reset'>>('ai_token/reset', { id });

export const revokeAiToken = (id: number) => request<unknown>('ai_token/revoke', { id });

export const deleteAiToken = (id: number) => request<unknown>('ai_token/delete', { id });

export const aiTokenItems = () =>
  request<Output<'aitoken', 'availableItems'>>('ai_token/availableItems', {});
