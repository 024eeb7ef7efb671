/**
 * AI agents in a page's presence: when an MCP token's save (`page.saved` with `agent`) reaches a
 * page open here, the document's awareness gets a server-made entry for that agent — its label
 * ("Claude via token 'docs-bot'"), whose token it is and a colour, no cursor — so every editor
 * lists it beside the humans while it writes. Each further write keeps it; AGENT_PRESENCE_MS
 * after the last one it is removed.
 *
 * The entry's client id is derived from the page and the token, so every process that shows the
 * same agent on the same page speaks for one entry: with REDIS_URL the awareness change also
 * travels to the other processes (Hocuspocus's Redis extension), and the `page.saved` event
 * reaches them too, for documents open only there. Clients cannot forge such an entry
 * (awareness.ts refuses states carrying `agent`).
 */
import { createHash } from 'node:crypto';
import type { Document } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import { applyAwarenessUpdate } from 'y-protocols/awareness';
import { AGENT_PRESENCE_MS, pageDocumentName, type CollabAgent } from '../collabProtocol';
import { loadedPage, type CollabRuntime } from './runtime';

/** Transaction origin of the server's agent entries (never a connection). */
const AGENT_ORIGIN = 'quire-agent';

const COLORS = ['#7c3aed', '#0891b2', '#c2410c', '#15803d', '#be185d', '#1d4ed8'];

/** A stable awareness client id (uint32, never 0) for one agent token on one page. */
export function agentClientId(pageId: number, tokenId: number): number {
  const digest = createHash('sha256').update(`agent:${pageId}:${tokenId}`).digest();
  return digest.readUInt32BE(0) || 1;
}

/** Sets (state) or removes (null) one entry, one clock tick past what the awareness knows. */
function writeEntry(document: Document, clientId: number, state: { agent: CollabAgent } | null) {
  const clock = (document.awareness.meta.get(clientId)?.clock ?? 0) + 1;
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 1);
  encoding.writeVarUint(encoder, clientId);
  encoding.writeVarUint(encoder, clock);
  encoding.writeVarString(encoder, JSON.stringify(state));
  applyAwarenessUpdate(document.awareness, encoding.toUint8Array(encoder), AGENT_ORIGIN);
}

export function agentPresence(
  runtime: CollabRuntime,
  lingerMs = AGENT_PRESENCE_MS,
): { stop(): void } {
  const log = runtime.logger.child({ service: 'collab-agents' });
  /** Removal timers by `<document name>#<client id>`. */
  const timers = new Map<string, { timer: NodeJS.Timeout; document: Document; clientId: number }>();

  function remove(key: string): void {
    const entry = timers.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    timers.delete(key);
    if (!entry.document.isDestroyed && entry.document.awareness.states.has(entry.clientId))
      writeEntry(entry.document, entry.clientId, null);
  }

  function show(pageId: number, agent: Omit<CollabAgent, 'color'>): void {
    const loaded = loadedPage(runtime, pageDocumentName(pageId));
    if (!loaded || loaded.document.getConnectionsCount() === 0) return;
    const clientId = agentClientId(pageId, agent.tokenId);
    const color = COLORS[agent.tokenId % COLORS.length];
    writeEntry(loaded.document, clientId, { agent: { ...agent, color } });
    const key = `${loaded.document.name}#${clientId}`;
    const previous = timers.get(key);
    if (previous) clearTimeout(previous.timer);
    const timer = setTimeout(() => remove(key), lingerMs);
    timer.unref();
    timers.set(key, { timer, document: loaded.document, clientId });
  }

  const unsubscribe = runtime.events.subscribe('page.saved', async (event) => {
    if (!event.agent || event.created) return;
    try {
      show(event.pageId, {
        label: event.agent.label,
        tokenId: event.agent.tokenId,
        uid: event.byUid,
      });
    } catch (error) {
      log.error({ err: error, pageId: event.pageId }, 'showing an agent in presence failed');
    }
  });

  return {
    stop() {
      unsubscribe();
      for (const key of [...timers.keys()]) remove(key);
    },
  };
}
