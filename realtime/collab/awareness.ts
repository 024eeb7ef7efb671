/**
 * Awareness (who is here, their cursor and mode) is relayed by Hocuspocus to everyone on the page
 * the moment it is applied, so it is checked before: a client may only speak for itself.
 *
 * An incoming awareness update is refused — and its document connection closed with
 * `awareness-identity` — when any state in it that would change the server's awareness carries a
 * `user` other than the connection's own (uid, and the name `hello` gave it), touches a client id
 * whose current state is another user's, claims or touches an AI agent's entry (the server's own),
 * is not a JSON object, or exceeds MAX_AWARENESS_BYTES.
 * States without `user` (a provider's empty initial state) claim nobody and pass; echoes of states
 * the server already has (providers send back what they receive) change nothing and pass. Clients
 * may not broadcast stateless messages either (`refused-message`): those are the server's channel
 * (`hello`, `access`), and must not be forgeable.
 */
import type { beforeHandleMessagePayload, Extension } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import { MAX_AWARENESS_BYTES } from '../collabProtocol';
import { contextOf } from './access';
import { closeEvent } from './authentication';

/** Hocuspocus message types (its MessageType enum) this check looks at. */
const AWARENESS = 1;
const BROADCAST_STATELESS = 6;

export type AwarenessVerdict = 'ok' | 'spoofed' | 'malformed';

interface Identity {
  uid: number;
  name: string;
}

function userOf(state: unknown): { id?: unknown; name?: unknown } | undefined {
  if (state === null || typeof state !== 'object') return undefined;
  const user = (state as { user?: unknown }).user;
  return user === undefined ? undefined : ((user ?? {}) as { id?: unknown; name?: unknown });
}

function isAgentState(state: unknown): boolean {
  return state !== null && typeof state === 'object' && 'agent' in state;
}

/** The server's awareness as far as the check needs it (y-protocols Awareness fits). */
export interface AwarenessView {
  states: Map<number, unknown>;
  meta: Map<number, { clock: number }>;
}

/**
 * Checks one encoded awareness update (y-protocols format) against the sender's identity. Entries
 * the server would ignore (not newer than what it has) are skipped: providers echo every state
 * they receive, other users' included, and an echo changes nothing.
 */
export function checkAwarenessUpdate(
  update: Uint8Array,
  self: Identity,
  current: AwarenessView,
): AwarenessVerdict {
  try {
    const decoder = decoding.createDecoder(update);
    const count = decoding.readVarUint(decoder);
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const json = decoding.readVarString(decoder);
      if (json.length > MAX_AWARENESS_BYTES) return 'malformed';
      const state: unknown = JSON.parse(json);
      if (state !== null && (typeof state !== 'object' || Array.isArray(state))) return 'malformed';
      // The same rule y-protocols' applyAwarenessUpdate uses to decide whether an entry applies.
      const known = current.meta.get(clientId)?.clock ?? 0;
      const applies =
        known < clock || (known === clock && state === null && current.states.has(clientId));
      if (!applies) continue;
      const existing = current.states.get(clientId);
      // AI agents' entries are the server's (agentPresence.ts): nobody adds, changes or drops one.
      if (isAgentState(existing) || isAgentState(state)) return 'spoofed';
      const owner = userOf(existing);
      if (owner && owner.id !== self.uid) return 'spoofed';
      const claimed = userOf(state);
      if (claimed && (claimed.id !== self.uid || claimed.name !== self.name)) return 'spoofed';
    }
    return decoder.pos === update.length ? 'ok' : 'malformed';
  } catch {
    return 'malformed';
  }
}

export function awarenessGuard(): Extension {
  return {
    extensionName: 'quire-awareness',
    async beforeHandleMessage({ update, connection, document }: beforeHandleMessagePayload) {
      const decoder = decoding.createDecoder(update);
      decoding.readVarString(decoder); // document name
      const type = decoding.readVarUint(decoder);
      if (type === BROADCAST_STATELESS) throw closeEvent('refused-message');
      if (type !== AWARENESS) return;
      const context = contextOf(connection);
      if (!context) throw closeEvent('awareness-identity');
      const verdict = checkAwarenessUpdate(
        decoding.readVarUint8Array(decoder),
        { uid: context.user.uid, name: context.user.name },
        document.awareness,
      );
      if (verdict !== 'ok') throw closeEvent('awareness-identity');
    },
  };
}
