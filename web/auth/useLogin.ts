/** The stored login as React state: re-renders on login, logout and changes in other tabs. */
import { useSyncExternalStore } from 'react';
import { getStoredLogin, subscribeLogin, type StoredLogin } from './storage';

export function useLogin(): StoredLogin | null {
  return useSyncExternalStore(subscribeLogin, getStoredLogin, () => null);
}
