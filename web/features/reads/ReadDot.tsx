/**
 * The catalog tree's marks: a dot after a page changed since the viewer last read it, and after a
 * catalog the number of such pages inside it (at any depth).
 */
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MenuCatalog } from '../reader/types';
import { useReads } from './context';

const DOT = {
  display: 'inline-block',
  width: 7,
  height: 7,
  borderRadius: '50%',
  background: '#2f6fde',
  marginLeft: 6,
  verticalAlign: 'middle',
} as const;

export function PageReadDot({ pageId }: { pageId: string }) {
  const { t } = useTranslation();
  const { changed } = useReads();
  if (!changed.has(pageId)) return null;
  return (
    <Tooltip title={t('reads.pageChanged')}>
      <span style={DOT} role="img" aria-label={t('reads.pageChanged')} data-testid="read-dot" />
    </Tooltip>
  );
}

function changedInside(cat: MenuCatalog, changed: ReadonlySet<string>): number {
  let count = cat.pages.filter((p) => changed.has(p.page_id)).length;
  for (const sub of cat.catalogs ?? []) count += changedInside(sub, changed);
  return count;
}

export function CatalogReadCount({ catalog }: { catalog: MenuCatalog }) {
  const { t } = useTranslation();
  const { changed } = useReads();
  const count = changed.size ? changedInside(catalog, changed) : 0;
  if (!count) return null;
  return (
    <span
      style={{ marginLeft: 6, fontSize: 11, color: '#2f6fde', fontWeight: 600 }}
      title={t('reads.changedCount', { count })}
      data-testid="read-catalog-count"
    >
      <span style={{ ...DOT, marginLeft: 0, marginRight: 3 }} />
      {count}
    </span>
  );
}
