/**
 * Subscribes a component to one server push for as long as it is mounted. The handler may change
 * on every render (kept in a ref); the subscription follows the socket when it is replaced.
 */
import { useEffect, useRef } from 'react';
import type { ServerEventName, ServerEventPayload } from '../../realtime/socketEvents';
import { useLive } from './context';

export function useLiveEvent<N extends ServerEventName>(
  name: N,
  handler: (payload: ServerEventPayload<N>) => void,
): void {
  const { socket } = useLive();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: ServerEventPayload<N>) => ref.current(payload);
    // socket.io's typed `on` cannot relate a generic name to its listener type.
    const untyped = socket as unknown as {
      on(event: string, fn: (payload: unknown) => void): void;
      off(event: string, fn: (payload: unknown) => void): void;
    };
    untyped.on(name, listener as (payload: unknown) => void);
    return () => untyped.off(name, listener as (payload: unknown) => void);
  }, [socket, name]);
}
