/**
 * `ai/*` (ShowDoc's AiController): the page editor's writing assistant (models/assistants). After
 * the login check (an envelope error, as ShowDoc) the answer is a server-sent-event stream,
 * refusals included: ShowDoc's editor reads only the stream.
 */
import { aiContract } from '../contracts';
import { writeAiAnswer } from '../../models/assistants';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const aiController = defineController('ai', aiContract, {
  async create(ctx) {
    const { actor } = await requireLogin(ctx);
    const closed = new AbortController();
    // 'close' on the response fires when the client goes away before the answer has ended.
    ctx.res.on('close', () => closed.abort());
    const res = ctx.res;
    await writeAiAnswer(actor, ctx.input.content, {
      signal: closed.signal,
      send(data) {
        if (!res.headersSent)
          res.status(200).set({
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache',
            'X-Accel-Buffering': 'no',
          });
        res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      },
    });
    if (res.headersSent) res.end();
  },
});
