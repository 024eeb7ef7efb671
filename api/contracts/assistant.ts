/**
 * The page editor's assistants: `ai/create` (ShowDoc's AiController: the answer is a
 * server-sent-event stream, so no envelope `data` is declared) and Quire's `httpRelay/send`, the
 * HTTP test tool's server relay.
 */
import { z } from 'zod';
import { action, str } from './coerce';

/** Headers as `[[name, value], …]` or `[{name, value}, …]`, as an array or its JSON text. */
function headerPairs() {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): [string, string][] => {
      let value = raw;
      if (value === undefined || value === null || value === '') return [];
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch {
          value = null;
        }
      }
      const out: [string, string][] = [];
      if (Array.isArray(value)) {
        for (const entry of value) {
          const pair = Array.isArray(entry)
            ? entry
            : entry && typeof entry === 'object'
              ? [(entry as { name?: unknown }).name, (entry as { value?: unknown }).value]
              : null;
          if (pair && typeof pair[0] === 'string' && ['string', 'number'].includes(typeof pair[1]))
            out.push([pair[0], String(pair[1])]);
          else return failed(ctx);
        }
        return out;
      }
      return failed(ctx);
    });
}

function failed(ctx: z.core.$RefinementCtx): never {
  ctx.addIssue({ code: 'custom', message: 'invalid' });
  return z.NEVER;
}

const flag = z.union([z.literal(0), z.literal(1)]);

export const aiContract = {
  create: action({ content: str() }, z.never()),
};

export const httpRelayContract = {
  send: action(
    { method: str('GET'), url: str(), headers: headerPairs(), body: str() },
    z.object({
      status: z.number(),
      status_text: z.string(),
      headers: z.array(z.tuple([z.string(), z.string()])),
      body: z.string(),
      binary: flag,
      size: z.number(),
      truncated: flag,
      url: z.string(),
      redirects: z.number(),
      duration_ms: z.number(),
    }),
  ),
};
