/**
 * Mounts a lazily loaded dialog the first time it is asked to open, and keeps it mounted after
 * (its closing animation and kept state work as with a static import): a screen's opening
 * download then carries none of the dialogs it may never show.
 */
import { Suspense, useState, type ReactNode } from 'react';

export function OnDemand({ open, children }: { open: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(open);
  // Derived during render (React's "adjust state on a prop change" pattern): no extra frame.
  if (open && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
