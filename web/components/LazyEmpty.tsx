/**
 * antd's Empty, loaded when one is shown: the reader shows one only for an item without pages or
 * a search without results, and every reader downloaded its illustrations for that.
 */
import type { EmptyProps } from 'antd';
import { lazy, Suspense } from 'react';

const AntEmpty = lazy(() =>
  import('antd/es/empty').then(({ default: Empty }) => ({
    default: ({ simple, ...props }: EmptyProps & { simple?: boolean }) => (
      <Empty image={simple ? Empty.PRESENTED_IMAGE_SIMPLE : undefined} {...props} />
    ),
  })),
);

/** `simple`: the small grey illustration (Empty.PRESENTED_IMAGE_SIMPLE). */
export function LazyEmpty(props: EmptyProps & { simple?: boolean }) {
  return (
    <Suspense fallback={null}>
      <AntEmpty {...props} />
    </Suspense>
  );
}
