/**
 * `httpRelay/*` (Quire's own): the HTTP test tool's server relay, for targets the browser cannot
 * read itself. The address rules, limits and throttle live in models/assistants/httpRelay.ts.
 */
import { httpRelayContract } from '../contracts';
import { relayHttpRequest } from '../../models/assistants';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const httpRelayController = defineController('httpRelay', httpRelayContract, {
  async send(ctx) {
    const { actor } = await requireLogin(ctx);
    return relayHttpRequest(actor, ctx.input, {
      allowHosts: ctx.config.allowPrivateHosts,
      subject: 'The relay',
    });
  },
});
