/**
 * The editor's save: a `save` message on the page document's own connection
 * (collabProtocol.ts CollabSaveRequest). The server stores the text its copy of the document holds
 * when the message arrives — every edit the connection sent before the message is in it, and a
 * co-editor's typing is neither overwritten nor re-applied — through the same savePage as REST
 * (permissions, history, change log, events, "save and notify"), handing it the document as the
 * save's live document (liveBridge.ts documentPort), which rebases and stores the draft. The
 * answer goes back on the same connection.
 */
import type { Extension, onStatelessPayload } from '@hocuspocus/server';
import { z } from 'zod';
import { savePage } from '../../models/pages';
import { errors, isApiError } from '../../models/platform';
import type { CollabServerMessage } from '../collabProtocol';
import { actorOf, contextOf, sendMessage } from './access';
import { documentPort } from './liveBridge';
import { loadedPage, type CollabRuntime } from './runtime';
import { documentContent } from './whiteboard';

const SaveRequest = z.object({
  type: z.literal('save'),
  requestId: z.string().min(1).max(64),
  title: z.string(),
  catId: z.number().int().min(0),
  customId: z.string(),
  notify: z.string().optional(),
});

function parse(payload: string): z.infer<typeof SaveRequest> | null {
  try {
    const parsed = SaveRequest.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveCommand(runtime: CollabRuntime): Extension {
  const log = runtime.logger.child({ service: 'collab-save' });
  return {
    extensionName: 'quire-save-command',
    async onStateless({ connection, documentName, payload }: onStatelessPayload) {
      const request = parse(payload);
      const context = contextOf(connection);
      if (!request || !context) return;
      const answer = (message: CollabServerMessage) => sendMessage(connection, message);
      try {
        const loaded = loadedPage(runtime, documentName);
        if (!loaded || connection.readOnly) throw errors.failed('No edit permission');
        // Read now, before any await: exactly the text the connection's earlier edits produced.
        const content = documentContent(loaded.live.kind, loaded.document);
        if (content === '') throw errors.failed('Saving empty content is not allowed');
        const { page } = await savePage(
          actorOf(context),
          {
            pageId: context.pageId,
            itemId: context.itemId,
            title: request.title,
            content,
            catId: request.catId,
            customId: request.customId.trim(),
            notify: request.notify !== undefined ? { content: request.notify } : null,
          },
          // The document takes its own save: its draft is rebased on the text it holds.
          { origin: 'collab', liveDoc: documentPort(runtime, documentName) },
        );
        answer({ type: 'saved', requestId: request.requestId, pageId: page.page_id, content });
      } catch (error) {
        if (!isApiError(error)) log.error({ err: error, pageId: context.pageId }, 'save failed');
        answer({
          type: 'save-failed',
          requestId: request.requestId,
          errorCode: isApiError(error) ? error.code : 10500,
          message: isApiError(error) ? error.message : 'Internal error',
        });
      }
    },
  };
}
