/**
 * antd's back-to-top button, whose code (the float-button family) loads once the page is
 * scrolled far enough for the button to show (antd's own threshold, 400 px): a reader who does
 * not scroll never downloads it.
 */
import type { FloatButtonBackTopProps } from 'antd/es/float-button/BackTop';
import { lazy, Suspense, useEffect, useState } from 'react';

const VISIBILITY_HEIGHT = 400;
const BackTop = lazy(() => import('antd/es/float-button/BackTop'));

export function LazyBackTop(props: FloatButtonBackTopProps & { 'data-testid'?: string }) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    const onScroll = () => window.scrollY >= VISIBILITY_HEIGHT && setWanted(true);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <BackTop {...props} />
    </Suspense>
  ) : null;
}
