/**
 * `keep` (collabProtocol.ts CollabKeepRequest): a client that keeps the document for offline
 * editing asks the server to store it as the page's draft when none is stored yet. Without it, a
 * page saved over REST while nobody has it open is rebuilt from the new content at the next open,
 * a history the kept copy does not share, and merging it would double the text; with the draft
 * stored, that save is applied onto the draft (persistence.ts reconcile) and the merge is exact.
 */
import type { Extension, onStatelessPayload } from '@hocuspocus/server';
import { z } from 'zod';
import type { CollabServerMessage } from '../collabProtocol';
import { contextOf, sendMessage } from './access';
import { rebaseAndStore } from './liveBridge';
import { loadedPage, type CollabRuntime } from './runtime';

const KeepRequest = z.object({ type: z.literal('keep'), requestId: z.string().min(1).max(64) });

function parse(payload: string): z.infer<typeof KeepRequest> | null {
  try {
    const parsed = KeepRequest.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function keepCommand(runtime: CollabRuntime): Extension {
  return {
    extensionName: 'quire-keep-command',
    async onStateless({ connection, documentName, payload }: onStatelessPayload) {
      const request = parse(payload);
      const context = contextOf(connection);
      if (!request || !context) return;
      const loaded = loadedPage(runtime, documentName);
      // Nothing stored yet: store the document as it is (its base, the saved text, unchanged).
      if (loaded && loaded.live.storedSignature === '')
        await rebaseAndStore(
          runtime,
          loaded.document,
          loaded.live,
          loaded.live.baseText,
          context.user.uid,
        );
      const answer: CollabServerMessage = { type: 'kept', requestId: request.requestId };
      sendMessage(connection, answer);
    },
  };
}
