/**
 * antd's Result, loaded when one is shown: its status illustrations weigh 10 KiB gzip, and the
 * screens that use it (the reader's "item/page unavailable") show one only when something failed.
 */
import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

const AntResult = lazy(() => import('antd/es/result'));

export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntResult {...props} />
    </Suspense>
  );
}
