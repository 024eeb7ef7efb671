/** Unread notice state shared by the header badge and the notice centre. */
import { createContext, useContext } from 'react';

export interface UnreadValue {
  remind: number;
  announce: number;
  /** Re-reads `message/getUnread` (after marking notices read). */
  refresh(): Promise<void>;
}

export const UnreadContext = createContext<UnreadValue>({
  remind: 0,
  announce: 0,
  refresh: async () => {},
});

export function useUnread(): UnreadValue {
  return useContext(UnreadContext);
}
