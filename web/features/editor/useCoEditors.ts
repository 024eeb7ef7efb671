/** Who else has the page's document open, from the awareness states (one entry per person). */
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState } from 'react';

export interface CoEditor {
  id: number;
  name: string;
  color: string;
}

export function useCoEditors(provider: HocuspocusProvider | null, myId: number | null): CoEditor[] {
  const [people, setPeople] = useState<CoEditor[]>([]);
  useEffect(() => {
    const awareness = provider?.awareness;
    if (!awareness) return;
    const refresh = () => {
      const byId = new Map<number, CoEditor>();
      for (const [clientId, state] of awareness.getStates()) {
        if (clientId === awareness.clientID) continue;
        const user = (state as { user?: { id?: unknown; name?: unknown; color?: unknown } }).user;
        const id = Number(user?.id);
        if (!id || id === myId) continue;
        byId.set(id, { id, name: String(user?.name ?? ''), color: String(user?.color ?? '#888') });
      }
      setPeople([...byId.values()].sort((a, b) => a.name.localeCompare(b.name)));
    };
    refresh();
    awareness.on('change', refresh);
    return () => awareness.off('change', refresh);
  }, [provider, myId]);
  return people;
}
