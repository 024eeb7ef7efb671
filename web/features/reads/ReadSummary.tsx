/** Above the catalog tree: how many pages changed since the viewer last read them, and "mark all as read". */
import { CheckOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReads } from './context';

export function ReadSummary() {
  const { t } = useTranslation();
  const { changed, markAll } = useReads();
  const [busy, setBusy] = useState(false);
  if (!markAll || changed.size === 0) return null;
  return (
    <div
      data-testid="read-summary"
      style={{ display: 'flex', alignItems: 'center', gap: 6, fontSize: 12, marginBottom: 6 }}
    >
      <span style={{ flex: 1, color: '#2f6fde' }}>
        {t('reads.changedCount', { count: changed.size })}
      </span>
      <Button
        size="small"
        type="link"
        icon={<CheckOutlined />}
        loading={busy}
        onClick={() => {
          setBusy(true);
          markAll().finally(() => setBusy(false));
        }}
        data-testid="read-mark-all"
      >
        {t('reads.markAll')}
      </Button>
    </div>
  );
}
