/**
 * "Available offline" for an item (issue #41), opened from the reader's header: makes the item
 * available offline (warm.ts), shows how far the download is and since when the copy exists,
 * lists pages edited offline that wait for the connection (with "sync now"), and removes the copy.
 */
import { Alert, Button, Modal, Progress, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemInfo } from '../reader/types';
import { readOffline } from './store';
import { makeAvailableOffline, offlineSupported, removeOffline, type WarmProgress } from './warm';

type Phase =
  | { state: 'idle' }
  | { state: 'working'; progress: WarmProgress }
  | { state: 'failed'; message: string };

export default function OfflineDialog({ item, onClose }: { item: ItemInfo; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const itemId = Number(item.item_id);
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const [, setVersion] = useState(0);
  const refresh = () => setVersion((v) => v + 1);
  const stored = readOffline();
  const copy = stored.items[String(itemId)] ?? null;
  const waiting = Object.values(stored.pending).filter((p) => p.itemId === itemId);
  const working = phase.state === 'working';

  const make = async () => {
    setPhase({ state: 'working', progress: { done: 0, total: 0 } });
    try {
      await makeAvailableOffline(item, (progress) => setPhase({ state: 'working', progress }));
      // From now on this tab also syncs offline edits when the connection comes back.
      await import('./boot');
      setPhase({ state: 'idle' });
    } catch (error) {
      setPhase({ state: 'failed', message: (error as Error).message });
    }
  };
  const remove = async () => {
    await removeOffline(itemId);
    refresh();
  };
  const syncNow = async () => {
    const [{ syncPending }, { showMergeReport }] = await Promise.all([
      import('./sync'),
      import('./MergeReport'),
    ]);
    const rows = await syncPending();
    if (rows.length) await showMergeReport(rows);
    refresh();
  };

  const when = copy ? new Date(copy.at).toLocaleString(i18n.language.replace('_', '-')) : '';
  return (
    <Modal open title={t('offline.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <div data-testid="offline-dialog" data-state={working ? 'working' : copy ? 'ready' : 'none'}>
        {!offlineSupported() ? (
          <Alert type="info" showIcon title={t('offline.unsupported')} />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph>
              {copy
                ? t('offline.ready', { count: copy.pageIds.length, when })
                : t('offline.explain')}
            </Typography.Paragraph>
            {working && (
              <div data-testid="offline-progress">
                <Typography.Text>{t('offline.progress', { ...phase.progress })}</Typography.Text>
                <Progress
                  percent={
                    phase.progress.total
                      ? Math.round((100 * phase.progress.done) / phase.progress.total)
                      : 0
                  }
                />
              </div>
            )}
            {phase.state === 'failed' && (
              <Alert
                type="error"
                showIcon
                title={t('offline.failed', { message: phase.message })}
              />
            )}
            {waiting.length > 0 && (
              <Alert
                type="warning"
                showIcon
                data-testid="offline-waiting"
                title={t('offline.waiting', { count: waiting.length })}
                action={
                  <Button size="small" onClick={() => void syncNow()}>
                    {t('offline.syncNow')}
                  </Button>
                }
              />
            )}
            <Space>
              <Button
                type="primary"
                loading={working}
                onClick={() => void make()}
                data-testid="offline-make"
              >
                {copy ? t('offline.update') : t('offline.make')}
              </Button>
              {copy && !working && (
                <Button danger onClick={() => void remove()} data-testid="offline-remove">
                  {t('offline.remove')}
                </Button>
              )}
            </Space>
          </Space>
        )}
      </div>
    </Modal>
  );
}
