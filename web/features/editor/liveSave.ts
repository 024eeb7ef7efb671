/**
 * Saving an open page: a `save` request on the page document's own connection (the contract is
 * realtime/collabProtocol.ts). The server stores the text its copy of the document holds, which
 * includes every edit this editor sent before the request, and answers on the same connection.
 * No content travels: the shared document is the one source of the text.
 */
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { CollabSaveRequest, CollabServerMessage } from '../../../realtime/collabProtocol';
import { ApiRequestError } from '../../api/request';

/** How long an answer may take before the save counts as failed (the request may be lost). */
export const LIVE_SAVE_TIMEOUT_MS = 60_000;

let counter = 0;

/** Resolves with the stored page id and text; rejects with an ApiRequestError like page/save. */
export function saveLive(
  provider: HocuspocusProvider,
  request: Omit<CollabSaveRequest, 'type' | 'requestId'>,
  offlineMessage: string,
): Promise<{ pageId: number; content: string }> {
  const requestId = `${Date.now().toString(36)}-${++counter}`;
  return new Promise((resolve, reject) => {
    const finish = () => {
      window.clearTimeout(timer);
      provider.off('stateless', onStateless);
    };
    const onStateless = ({ payload }: { payload: string }) => {
      let message: CollabServerMessage;
      try {
        message = JSON.parse(payload) as CollabServerMessage;
      } catch {
        return;
      }
      if (message.type === 'saved' && message.requestId === requestId) {
        finish();
        resolve({ pageId: message.pageId, content: message.content });
      } else if (message.type === 'save-failed' && message.requestId === requestId) {
        finish();
        reject(new ApiRequestError(message.errorCode, message.message, 'collab/save'));
      }
    };
    const timer = window.setTimeout(() => {
      finish();
      reject(new ApiRequestError(0, offlineMessage, 'collab/save'));
    }, LIVE_SAVE_TIMEOUT_MS);
    provider.on('stateless', onStateless);
    provider.sendStateless(JSON.stringify({ type: 'save', requestId, ...request }));
  });
}
