/**
 * Yjs scenario: editors on one page document (`page.<id>` at /collab, @hocuspocus/provider 3 over
 * `ws`, one WebSocket each, as the web editor connects). The item's owner takes the page lock (with
 * simultaneous editing off only the lock holder writes; the others watch live, which is the
 * default set-up) and types; each edit is timed from the local change to the moment every other
 * editor's document holds it.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { COLLAB_PATH, PAGE_TEXT, pageDocumentName } from '../../realtime/collabProtocol';
import { startCpuMeter } from './procstat';
import { apiCall, type PropagationResult, type TargetPage } from './realtimeSockets';
import { LatencyLog } from './stats';

const OPEN_TIMEOUT_MS = 30_000;
const EDIT_TIMEOUT_MS = 10_000;
const PAUSE_BETWEEN_EDITS_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Editor {
  doc: Y.Doc;
  text: Y.Text;
  /** Resolves once authenticated and synced; rejects with the refusal reason or on timeout. */
  ready: Promise<'read-write' | 'read-only'>;
  destroy(): void;
}

/** Opens a document, a page's unless `name` names another (a whiteboard's, whiteboard.ts). */
export function openEditor(
  serverUrl: string,
  pageId: number,
  token: string,
  name = pageDocumentName(pageId),
): Editor {
  const socket = new HocuspocusProviderWebsocket({
    url: serverUrl.replace(/^http/, 'ws') + COLLAB_PATH,
    WebSocketPolyfill: WebSocket,
    maxAttempts: 1, // a refusal should show, not be retried
  });
  const doc = new Y.Doc();
  let scope: 'read-write' | 'read-only' | undefined;
  let settle!: { resolve: (s: 'read-write' | 'read-only') => void; reject: (e: Error) => void };
  const ready = new Promise<'read-write' | 'read-only'>(
    (resolve, reject) => (settle = { resolve, reject }),
  );
  ready.catch(() => {});
  const timer = setTimeout(
    () => settle.reject(new Error(`not synced within ${OPEN_TIMEOUT_MS / 1000} s`)),
    OPEN_TIMEOUT_MS,
  );
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    document: doc,
    token,
    onAuthenticated: ({ scope: granted }) => (scope = granted as 'read-write' | 'read-only'),
    onAuthenticationFailed: ({ reason }) => settle.reject(new Error(`refused: ${reason}`)),
    onSynced: () => {
      clearTimeout(timer);
      settle.resolve(scope ?? 'read-write');
    },
  });
  // A v3 provider given its own websocket must be attached to it.
  provider.attach();
  return {
    doc,
    text: doc.getText(PAGE_TEXT),
    ready,
    destroy() {
      clearTimeout(timer);
      provider.destroy();
      socket.destroy();
    },
  };
}

export type CollabOutcome =
  { available: false; reason: string } | ({ available: true; editors: number } & PropagationResult);

export async function yjsPropagation(
  target: TargetPage,
  readerTokens: string[],
  editors: number,
  edits: number,
): Promise<CollabOutcome> {
  const opened: Editor[] = [];
  const lockError = await apiCall(target.url, 'page/setLock', {
    page_id: target.pageId,
    item_id: target.itemId,
    user_token: target.ownerToken,
  });
  try {
    if (lockError)
      return { available: false, reason: `could not take the page lock (${lockError})` };
    const writer = openEditor(target.url, target.pageId, target.ownerToken);
    opened.push(writer);
    try {
      const scope = await writer.ready;
      if (scope !== 'read-write')
        return { available: false, reason: 'the lock holder got a read-only document' };
    } catch (error) {
      return { available: false, reason: `collab: ${(error as Error).message}` };
    }

    let errors = 0;
    let firstError: string | undefined;
    const readers: Editor[] = [];
    for (let start = 0; start < editors - 1; start += 10) {
      const batch = Array.from({ length: Math.min(10, editors - 1 - start) }, (_, i) =>
        openEditor(target.url, target.pageId, readerTokens[(start + i) % readerTokens.length]),
      );
      opened.push(...batch);
      const settled = await Promise.allSettled(batch.map((e) => e.ready));
      settled.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') readers.push(batch[i]);
        else {
          errors++;
          firstError ??= `an editor could not open the page: ${(outcome.reason as Error).message}`;
        }
      });
    }

    const latencies = new LatencyLog();
    const firstDeliveries = new LatencyLog();
    let current: {
      startedAt: number;
      length: number;
      got: Uint8Array;
      count: number;
      done: () => void;
    } | null = null;
    readers.forEach((reader, index) =>
      reader.doc.on('update', () => {
        const edit = current;
        if (!edit || edit.got[index] || reader.text.length < edit.length) return;
        edit.got[index] = 1;
        const latency = performance.now() - edit.startedAt;
        latencies.add(latency);
        if (edit.count === 0) firstDeliveries.add(latency);
        if (++edit.count === readers.length) edit.done();
      }),
    );

    const cpu = startCpuMeter(target.serverPid, target.ownPids);
    for (let n = 0; n < edits && readers.length; n++) {
      let done!: () => void;
      const arrived = new Promise<void>((resolve) => (done = resolve));
      const startedAt = performance.now();
      writer.text.insert(writer.text.length, `\nbench edit ${n} `);
      current = {
        startedAt,
        length: writer.text.length,
        got: new Uint8Array(readers.length),
        count: 0,
        done,
      };
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        arrived,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, EDIT_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (current.count < readers.length) {
        errors += readers.length - current.count;
        firstError ??= `${readers.length - current.count} of ${readers.length} editors did not get an edit within ${EDIT_TIMEOUT_MS / 1000} s`;
      }
      current = null;
      await sleep(PAUSE_BETWEEN_EDITS_MS);
    }
    return {
      available: true,
      editors: readers.length + 1,
      latencies,
      firstDeliveries,
      errors,
      firstError,
      cpu: cpu.stop(),
    };
  } finally {
    for (const editor of opened) editor.destroy();
    if (!lockError)
      await apiCall(target.url, 'page/setLock', {
        page_id: target.pageId,
        item_id: target.itemId,
        lock_to: 1000,
        user_token: target.ownerToken,
      });
  }
}
