/**
 * Item settings → base info: the item's suggest mode (`suggest_only_readers`): read-only members
 * may propose changes, and AI agents' edits arrive as suggestions unless their token writes
 * directly. Saved at once when switched.
 */
import { Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/request';
import type { ItemDetail } from '../../api/types';

export function SuggestModeSetting({ detail, onSaved }: { detail: ItemDetail; onSaved(): void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const type = Number(detail.item_type || 1);
  if (type !== 1 && type !== 2) return null;
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await request('item/update', {
        item_id: Number(detail.item_id),
        suggest_only_readers: on ? 1 : 0,
      });
      onSaved();
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ marginTop: 24, display: 'flex', gap: 12, alignItems: 'flex-start' }}>
      <Switch
        checked={detail.suggest_only_readers === '1'}
        loading={busy}
        onChange={(on) => void toggle(on)}
        data-testid="suggest-mode-setting"
      />
      <div>
        <Typography.Text strong>{t('suggest.setting')}</Typography.Text>
        <br />
        <Typography.Text type="secondary">{t('suggest.settingHelp')}</Typography.Text>
      </div>
    </div>
  );
}
