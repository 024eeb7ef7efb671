/**
 * `agent/*`: ShowDoc's AI assistant. Quire leaves it out (README, "Left out"); every action
 * answers as ShowDoc does with no AI service configured — models/aiOff.ts.
 */
import {
  agentConfig,
  agentSessionAction,
  agentSessions,
  agentUnavailable,
} from '../../models/compat';
import { optionalLogin } from '../auth';
import { agentContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

async function scope(ctx: ActionContext<{ item_id: number; guest_token: string }>) {
  const { actor } = await optionalLogin(ctx);
  return {
    actor,
    input: { itemId: ctx.input.item_id, guestToken: ctx.input.guest_token.trim() },
  };
}

export const agentController = defineController('agent', agentContract, {
  async config(ctx) {
    const { actor } = await optionalLogin(ctx);
    return agentConfig(actor, ctx.input.item_id);
  },

  async sessionList(ctx) {
    const { actor, input } = await scope(ctx);
    return agentSessions(actor, input);
  },

  async sessionLoad(ctx) {
    const { actor, input } = await scope(ctx);
    return agentUnavailable(actor, input);
  },

  async sessionNew(ctx) {
    const { actor, input } = await scope(ctx);
    return agentUnavailable(actor, input);
  },

  async agent(ctx) {
    const { actor, input } = await scope(ctx);
    return agentUnavailable(actor, input);
  },

  sessionReset: (ctx) => agentSessionAction(ctx.input.session_id, 'session'),
  sessionDelete: (ctx) => agentSessionAction(ctx.input.session_id, 'session'),
  agentCancel: (ctx) => agentSessionAction(ctx.input.session_id, 'session'),
  feedback: (ctx) => agentSessionAction(ctx.input.msg_id, 'message'),
});
