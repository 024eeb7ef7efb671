/** `/item/export/:item_id` (spec 002): the export choice as a workspace screen. */
import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { itemDetail } from '../../api/items';
import type { ItemDetail } from '../../api/types';
import { ScreenCard } from '../layout/ScreenCard';
import { ExportChooser } from './ExportChooser';

export default function ExportPage() {
  const { t } = useTranslation();
  const itemId = Number(useParams().item_id);
  const [item, setItem] = useState<ItemDetail | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    itemDetail(itemId)
      .then((detail) => live && setItem(detail))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [itemId]);

  return (
    <ScreenCard
      title={t('dataTransfer.export.screenTitle', { name: item?.item_name ?? '' })}
      back="/item/index"
    >
      {error ? (
        <Alert type="error" showIcon title={error} />
      ) : item ? (
        <ExportChooser itemId={itemId} itemType={Number(item.item_type)} />
      ) : (
        <Spin />
      )}
    </ScreenCard>
  );
}
