/** Share an item: its address to copy, and a QR code of it. */
import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { qrCodeUrl } from '../../api/common';
import type { ItemListEntry } from '../../api/types';
import { itemPath } from './itemTypes';

export default function ShareModal({
  item,
  onClose,
}: {
  item: ItemListEntry;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const url = `${window.location.origin}${itemPath(item)}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      message.success(t('common.copied'));
    } catch {
      message.info(t('common.copyManually'));
    }
  }

  return (
    <Modal open title={t('items.share.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>{t('items.share.help')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={url} aria-label={t('items.share.link')} />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('common.copy')}
        </Button>
      </Space.Compact>
      {!!item.is_private && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('items.share.privateNote')}
        </Typography.Paragraph>
      )}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <img src={qrCodeUrl(url)} alt={t('items.share.qr')} width={160} height={160} />
      </div>
    </Modal>
  );
}
