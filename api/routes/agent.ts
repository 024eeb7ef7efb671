/**
 * `agent/*`: "Ask the docs", ShowDoc's item assistant (models/agent). A guest is known by the
 * browser's `guest_token`; `agent/agent` refuses with an envelope error like any action, then
 * answers a server-sent-event stream as ShowDoc's AgentController does.
 */
import { answerQuestion, type Asker, agentConfig, cancelAnswer } from '../../models/agent';
import {
  deleteSession,
  listSessions,
  loadSession,
  newSession,
  resetSession,
  saveFeedback,
} from '../../models/agent';
import { itemPassword, optionalLogin } from '../auth';
import { agentContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

async function askerOf(ctx: ActionContext<{ guest_token: string }>): Promise<Asker> {
  const { actor } = await optionalLogin(ctx);
  return {
    actor,
    guestToken: ctx.input.guest_token.trim().slice(0, 64),
    itemPassword: itemPassword(ctx),
    client: ctx.ip,
  };
}

export const agentController = defineController('agent', agentContract, {
  config: async (ctx) => agentConfig(await askerOf(ctx), ctx.input.item_id),
  sessionList: async (ctx) => listSessions(await askerOf(ctx), ctx.input.item_id),
  sessionLoad: async (ctx) =>
    loadSession(await askerOf(ctx), ctx.input.item_id, ctx.input.session_id),
  sessionNew: async (ctx) => newSession(await askerOf(ctx), ctx.input.item_id),
  sessionReset: async (ctx) => resetSession(await askerOf(ctx), ctx.input.session_id),
  sessionDelete: async (ctx) => deleteSession(await askerOf(ctx), ctx.input.session_id),
  feedback: async (ctx) => saveFeedback(await askerOf(ctx), ctx.input.msg_id, ctx.input.feedback),
  agentCancel: async (ctx) =>
    cancelAnswer(await askerOf(ctx), ctx.input.session_id, ctx.input.turn_token.trim()),

  async agent(ctx) {
    const asker = await askerOf(ctx);
    const closed = new AbortController();
    const res = ctx.res;
    // 'close' fires when the asker goes away before the answer has ended: the model call stops.
    res.on('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    const sink = {
      signal: closed.signal,
      send(event: object | '[DONE]') {
        if (!res.headersSent) {
          res.status(200).set({
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache',
            'X-Accel-Buffering': 'no',
          });
          res.flushHeaders();
        }
        if (!res.writableEnded)
          res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      },
    };
    try {
      await answerQuestion(
        asker,
        {
          sessionId: ctx.input.session_id,
          itemId: ctx.input.item_id,
          message: ctx.input.message,
          turnToken: ctx.input.turn_token.trim().slice(0, 64),
        },
        ctx.config.assistantLimits,
        sink,
      );
    } catch (error) {
      // Before the stream: the envelope answers it. After: the stream says it failed and ends.
      if (!res.headersSent) throw error;
      ctx.logger.error({ err: error }, 'agent/agent failed while streaming');
      sink.send({ type: 'error', code: 'internal', message: 'The answer failed' });
      sink.send('[DONE]');
    }
    if (res.headersSent) res.end();
  },
});
