/**
 * Who else has the page's document open, from the awareness states (one entry per person), and
 * the AI agents writing it (the server's `agent` entries, one per token, listed after the people).
 */
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState } from 'react';

export interface CoEditor {
  /** The person's uid; for an agent, the negated token id (an agent writes as its owner). */
  id: number;
  name: string;
  color: string;
  /** An AI agent writing through an MCP token ("Claude via token 'docs-bot'"). */
  agent?: boolean;
}

export function useCoEditors(provider: HocuspocusProvider | null, myId: number | null): CoEditor[] {
  const [people, setPeople] = useState<CoEditor[]>([]);
  useEffect(() => {
    const awareness = provider?.awareness;
    if (!awareness) return;
    const refresh = () => {
      const byId = new Map<number, CoEditor>();
      const agents = new Map<number, CoEditor>();
      for (const [clientId, state] of awareness.getStates()) {
        if (clientId === awareness.clientID) continue;
        const agent = (state as { agent?: { label?: unknown; tokenId?: unknown; color?: unknown } })
          .agent;
        if (agent) {
          const tokenId = Number(agent.tokenId);
          if (tokenId > 0)
            agents.set(tokenId, {
              id: -tokenId,
              name: String(agent.label ?? ''),
              color: String(agent.color ?? '#7c3aed'),
              agent: true,
            });
          continue;
        }
        const user = (state as { user?: { id?: unknown; name?: unknown; color?: unknown } }).user;
        const id = Number(user?.id);
        if (!id || id === myId) continue;
        byId.set(id, { id, name: String(user?.name ?? ''), color: String(user?.color ?? '#888') });
      }
      const byName = (a: CoEditor, b: CoEditor) => a.name.localeCompare(b.name);
      setPeople([...[...byId.values()].sort(byName), ...[...agents.values()].sort(byName)]);
    };
    refresh();
    awareness.on('change', refresh);
    return () => awareness.off('change', refresh);
  }, [provider, myId]);
  return people;
}
