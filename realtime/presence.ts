/**
 * Who is on a page: the sockets in `presence:<page>` (those that watch the page with a mode), each
 * user once, `editing` if any of their sockets edits. The list is read through the adapter
 * (`fetchSockets()`), so with Redis it spans every process, and pushed to `page:<page>` as a whole
 * after each change. Changes within one tick are coalesced into one push per page, and the state
 * lives in the sockets themselves: nothing to clean up when a process dies. AI agents writing the
 * page (MCP) follow the people, kept from the relayed `page.saved` events for a few seconds.
 */
import type { Logger } from '../models/platform';
import { AGENT_PRESENCE_MS } from './collabProtocol';
import { rooms, type PresenceMode, type PresenceUser } from './socketEvents';
import type { QuireServer } from './types';

export interface Presence {
  /** The page's presence list changed (someone joined, left or switched mode): push it soon. */
  changed(pageId: number): void;
  /** The current list (for a new watcher's acknowledgement). */
  list(pageId: number): Promise<PresenceUser[]>;
  /**
   * An AI agent wrote the page (`page.saved` with `agent`, relayed to every process, so each
   * holds the same agents): listed after the people, as editing, until AGENT_PRESENCE_MS after
   * its last write.
   */
  agentWrote(pageId: number, agent: { label: string; tokenId: number; uid: number }): void;
  close(): void;
}

export function createPresence(io: QuireServer, logger: Logger): Presence {
  const pending = new Set<number>();
  let scheduled = false;
  let closed = false;
  /** Agents writing each page, by token id. */
  const agents = new Map<number, Map<number, { user: PresenceUser; timer: NodeJS.Timeout }>>();

  async function list(pageId: number): Promise<PresenceUser[]> {
    const sockets = await io.in(rooms.presence(pageId)).fetchSockets();
    const byUid = new Map<number, PresenceUser>();
    for (const socket of sockets) {
      const mode: PresenceMode | undefined = socket.data.present?.[pageId];
      if (!mode) continue; // left between the room read and now
      const seen = byUid.get(socket.data.uid);
      if (!seen)
        byUid.set(socket.data.uid, { uid: socket.data.uid, username: socket.data.username, mode });
      else if (mode === 'editing') seen.mode = 'editing';
    }
    const people = [...byUid.values()].sort((a, b) => a.uid - b.uid);
    return [...people, ...[...(agents.get(pageId)?.values() ?? [])].map((entry) => entry.user)];
  }

  async function push(pageId: number): Promise<void> {
    try {
      const users = await list(pageId);
      if (!closed) io.to(rooms.page(pageId)).emit('presence', { page_id: pageId, users });
    } catch (error) {
      // e.g. another process did not answer in time: the next change pushes a fresh list.
      logger.warn({ err: error, pageId }, 'presence list failed');
    }
  }

  function flush(): void {
    scheduled = false;
    const pages = [...pending];
    pending.clear();
    if (closed) return;
    for (const pageId of pages) void push(pageId);
  }

  function changed(pageId: number): void {
    if (closed) return;
    pending.add(pageId);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  return {
    changed,
    agentWrote(pageId, agent) {
      if (closed) return;
      const onPage = agents.get(pageId) ?? new Map();
      agents.set(pageId, onPage);
      const previous = onPage.get(agent.tokenId);
      if (previous) clearTimeout(previous.timer);
      const timer = setTimeout(() => {
        onPage.delete(agent.tokenId);
        if (!onPage.size) agents.delete(pageId);
        changed(pageId);
      }, AGENT_PRESENCE_MS);
      timer.unref();
      onPage.set(agent.tokenId, {
        user: {
          uid: agent.uid,
          username: agent.label,
          mode: 'editing',
          agent: { token_id: agent.tokenId },
        },
        timer,
      });
      changed(pageId);
    },
    list,
    close() {
      closed = true;
      pending.clear();
      for (const onPage of agents.values())
        for (const entry of onPage.values()) clearTimeout(entry.timer);
      agents.clear();
    },
  };
}
