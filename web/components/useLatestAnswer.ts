/**
 * Loads with `fetch` when it changes (make it with useCallback over what it reads) and again on
 * `reload()`. A stale answer (from an earlier fetch) never overwrites a newer one; a failed load
 * shows `empty` (the API client has already alerted it). `data` is null until the first answer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export function useLatestAnswer<T>(
  fetch: () => Promise<T>,
  empty: T,
): { data: T | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const emptyRef = useRef(empty);
  const load = useCallback(() => {
    let current = true;
    fetch().then(
      (next) => current && setData(next),
      () => current && setData(emptyRef.current),
    );
    return () => {
      current = false;
    };
  }, [fetch]);
  useEffect(load, [load]);
  return { data, reload: load };
}
