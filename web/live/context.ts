/** The live connection as React sees it (LiveProvider fills it; hooks read it). */
import { createContext, useContext } from 'react';
import type { ConnectionState, LiveSocket } from './socket';

export interface LiveValue {
  socket: LiveSocket | null;
  state: ConnectionState;
}

export const LiveContext = createContext<LiveValue>({ socket: null, state: 'refused' });

export function useLive(): LiveValue {
  return useContext(LiveContext);
}

/** Whether pushes are flowing (screens poll only while this is false). */
export function useLiveConnected(): boolean {
  return useLive().state === 'connected';
}
