/**
 * `ai/*` (ShowDoc's AiController): the writing assistant of the page editor. ShowDoc answers it
 * as a server-sent-event stream, errors included (its editor reads them from the stream), after
 * requiring a login. Quire has no assistant yet (models/compat/aiOff.ts): the stream carries
 * the refusal ShowDoc sends when no AI key is configured.
 */
import { aiAssistantRefusal } from '../../models/compat';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const aiController = defineController('ai', {
  async create(ctx) {
    const { actor } = await requireLogin(ctx);
    const refusal = await aiAssistantRefusal(actor);
    ctx.res
      .status(200)
      .set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
      })
      .send(`data: ${JSON.stringify(refusal)}\n\n`);
  },
});
