/**
 * The `redirect` of the login and registration screens: where to go afterwards, and whether it
 * passes the rule of spec 000 §5 (otherwise the action stops with the 'illegal redirect' alert).
 */
import { useSearchParams } from 'react-router';
import { DEFAULT_AFTER_LOGIN, isSafeRedirect } from '../../auth/redirect';

export function useRedirectTarget(param = 'redirect'): {
  target: string;
  legal: boolean;
  given: boolean;
} {
  const [search] = useSearchParams();
  const raw = search.get(param);
  if (!raw) return { target: DEFAULT_AFTER_LOGIN, legal: true, given: false };
  return { target: raw, legal: isSafeRedirect(raw), given: true };
}
