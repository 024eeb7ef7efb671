/**
 * Open API info of an item: its api_key and api_token (for scripts and CI that write pages), and
 * resetting the token (the key never changes).
 */
import { App, Button, Descriptions, Modal, Popconfirm, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getItemKey, resetItemKey } from '../../api/items';
import type { ItemKey } from '../../api/types';

export default function OpenApiModal({ itemId, onClose }: { itemId: number; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('items.openApi.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={620}
    >
      <OpenApiPanel itemId={itemId} onFailed={onClose} />
    </Modal>
  );
}

/** The key, token, help and reset (also the item setting screen's "open API" tab). */
export function OpenApiPanel({ itemId, onFailed }: { itemId: number; onFailed?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [key, setKey] = useState<ItemKey | null>(null);

  useEffect(() => {
    getItemKey(itemId).then(setKey, () => onFailed?.());
  }, [itemId, onFailed]);

  async function reset() {
    try {
      setKey(await resetItemKey(itemId));
      message.success(t('items.openApi.resetDone'));
    } catch {
      // alerted
    }
  }

  return (
    <>
      {!key ? (
        <Spin />
      ) : (
        <>
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              {
                key: 'key',
                label: 'api_key',
                children: (
                  <Typography.Text copyable code>
                    {key.api_key}
                  </Typography.Text>
                ),
              },
              {
                key: 'token',
                label: 'api_token',
                children: (
                  <Typography.Text copyable code>
                    {key.api_token}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('items.openApi.help', {
              url: `${window.location.origin}/server/api/open/updatePage`,
            })}
          </Typography.Paragraph>
          <Popconfirm
            title={t('items.openApi.resetConfirm')}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            onConfirm={reset}
          >
            <Button danger>{t('items.openApi.reset')}</Button>
          </Popconfirm>
        </>
      )}
    </>
  );
}
