/**
 * `ai_token/*`: the caller's AI tokens for the MCP endpoint (ShowDoc's AiTokenController);
 * models/aiTokens does the work. The raw token appears only in create's and reset's answers.
 */
import {
  aiTokenDetail,
  type AiTokenInput,
  availableItems,
  createAiToken,
  deleteAiToken,
  listAiTokens,
  resetAiToken,
  revokeAiToken,
  updateAiToken,
} from '../../models/aiTokens';
import { requireLogin } from '../auth';
import { aiTokenContract } from '../contracts';
import { defineController } from '../registry';

/** Text fields as text (numbers too), `undefined` when not sent; lists and flags as sent. */
function tokenInput(input: Record<string, unknown>): AiTokenInput {
  const text = (value: unknown) =>
    value === undefined || value === null
      ? undefined
      : typeof value === 'string' || typeof value === 'number'
        ? String(value)
        : '';
  return {
    name: text(input.name),
    permission: text(input.permission),
    scope: text(input.scope),
    allowed_items: input.allowed_items,
    can_create_item: input.can_create_item,
    can_delete_item: input.can_delete_item,
    auto_add_created_item: input.auto_add_created_item,
    write_directly: input.write_directly,
    expires_at: text(input.expires_at),
  };
}

export const aiTokenController = defineController('ai_token', aiTokenContract, {
  async list(ctx) {
    const { actor } = await requireLogin(ctx);
    return listAiTokens(actor);
  },

  async detail(ctx) {
    const { actor } = await requireLogin(ctx);
    return aiTokenDetail(actor, ctx.input.id);
  },

  async create(ctx) {
    const { actor } = await requireLogin(ctx);
    return createAiToken(actor, tokenInput(ctx.input));
  },

  async update(ctx) {
    const { actor } = await requireLogin(ctx);
    return updateAiToken(actor, ctx.input.id, tokenInput(ctx.input));
  },

  async reset(ctx) {
    const { actor } = await requireLogin(ctx);
    return resetAiToken(actor, ctx.input.id);
  },

  async revoke(ctx) {
    const { actor } = await requireLogin(ctx);
    return revokeAiToken(actor, ctx.input.id);
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteAiToken(actor, ctx.input.id);
  },

  async availableItems(ctx) {
    const { actor } = await requireLogin(ctx);
    return availableItems(actor);
  },
});
