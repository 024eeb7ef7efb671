/**
 * The item list's "Pages changed: N": asked once the list has shown (read/itemCounts), so the
 * list itself loads as fast as before, and shown on each item's row.
 */
import { Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchItemCounts } from './api';

/** item id → pages changed since the user read them; reloaded whenever `list` changes. */
export function useItemChangeCounts(list: unknown): ReadonlyMap<number, number> {
  const [counts, setCounts] = useState<ReadonlyMap<number, number>>(new Map());
  useEffect(() => {
    if (!list) return;
    let current = true;
    fetchItemCounts().then(
      (rows) => current && setCounts(new Map(rows.map((r) => [r.item_id, r.changed_pages]))),
      () => {}, // the list works without its counts
    );
    return () => {
      current = false;
    };
  }, [list]);
  return counts;
}

export function ItemChangedTag({ count }: { count?: number }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <Tag color="blue" data-testid="item-changed-pages">
      {t('reads.changedCount', { count })}
    </Tag>
  );
}
