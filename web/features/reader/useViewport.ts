/** The window width class the reader lays out for (spec 002 §9: mobile under 1000 px). */
import { useSyncExternalStore } from 'react';

export const MOBILE_BELOW = 1000;
/** The narrow-screen header's height (MobileHeader.tsx, loaded only on narrow screens). */
export const MOBILE_HEADER_HEIGHT = 48;

function subscribe(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth < MOBILE_BELOW,
    () => false,
  );
}
