/**
 * `ai_token/*`: ShowDoc's access tokens for its MCP server. Quire has no MCP server (README,
 * "Left out"): the list is empty, no token exists, creating one fails — models/aiOff.ts.
 */
import { aiTokenMissing, createAiToken, listAiTokens } from '../../models/compat';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const aiTokenController = defineController('ai_token', {
  async list(ctx) {
    await requireLogin(ctx);
    return listAiTokens();
  },

  async detail(ctx) {
    await requireLogin(ctx);
    return aiTokenMissing(ctx.params.int('id'));
  },

  async update(ctx) {
    await requireLogin(ctx);
    return aiTokenMissing(ctx.params.int('id'));
  },

  async delete(ctx) {
    await requireLogin(ctx);
    return aiTokenMissing(ctx.params.int('id'));
  },

  async create(ctx) {
    await requireLogin(ctx);
    return createAiToken();
  },
});
