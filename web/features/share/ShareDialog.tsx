/**
 * The share dialog of the reader (spec 002 §2 "Share dialog", §9: 500 px wide, QR 114 px, size 3):
 * the item's address — custom domain if set, else the id — with a copy action that copies the
 * item name and the link, and a QR code of it. With a page open it also shows the page's address
 * and, for editors, the single-page share switch (spec 001 §4: turning it off asks first).
 */
import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Divider, Input, Modal, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { qrCodeUrl } from '../../api/common';
import { toggleSinglePage } from '../reader/api';
import { itemAddress, readerPath, sharedPagePath } from '../reader/paths';

export const SHARE_DIALOG_WIDTH = 500;
export const QR_SIZE_PX = 114;

export interface ShareTarget {
  item: { item_id: string; item_domain: string; item_name: string };
  page?: { page_id: string; page_title: string; unique_key: string } | null;
  /** item_edit: may switch the single-page link. */
  canEdit: boolean;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export default function ShareDialog({
  target,
  onClose,
  onShareKeyChange,
}: {
  target: ShareTarget;
  onClose: () => void;
  /** The page's share key after a switch ('' = off). */
  onShareKeyChange?: (key: string) => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const origin = window.location.origin;
  const itemUrl = origin + readerPath(itemAddress(target.item));
  const page = target.page;
  const pageUrl = page ? origin + readerPath(itemAddress(target.item), page.page_id) : '';
  const [shareKey, setShareKey] = useState(page?.unique_key ?? '');
  const [busy, setBusy] = useState(false);
  const shareUrl = shareKey ? origin + sharedPagePath(shareKey) : '';

  async function copy(text: string) {
    if (await copyText(text)) message.success(t('share.copySuccess'));
    else message.info(t('common.copyManually'));
  }

  async function switchSinglePage(on: boolean) {
    if (!page) return;
    const apply = async () => {
      setBusy(true);
      try {
        const key = await toggleSinglePage(Number(page.page_id), on);
        setShareKey(key);
        onShareKeyChange?.(key);
      } catch {
        // alerted by the API client
      } finally {
        setBusy(false);
      }
    };
    if (on) await apply();
    else
      modal.confirm({
        title: t('share.singleOffConfirm'),
        okText: t('common.confirm'),
        cancelText: t('common.cancel'),
        onOk: apply,
      });
  }

  return (
    <Modal
      open
      title={t('share.title')}
      footer={null}
      onCancel={onClose}
      width={SHARE_DIALOG_WIDTH}
      destroyOnHidden
    >
      <Typography.Text strong>{t('share.itemAddress')}</Typography.Text>
      <Space.Compact style={{ width: '100%', marginTop: 6 }}>
        <Input
          readOnly
          value={itemUrl}
          aria-label={t('share.itemAddress')}
          data-testid="share-item-url"
        />
        <Button
          icon={<CopyOutlined />}
          onClick={() => void copy(`${target.item.item_name} ${itemUrl}`)}
          data-testid="share-copy"
        >
          {t('share.copyLink')}
        </Button>
      </Space.Compact>
      <div style={{ textAlign: 'center', marginTop: 12 }}>
        <img
          src={qrCodeUrl(itemUrl)}
          alt={t('share.qr')}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          data-testid="share-qr"
        />
      </div>
      {page && (
        <>
          <Divider style={{ margin: '12px 0' }} />
          <Typography.Text strong>{t('share.pageAddress')}</Typography.Text>
          <Space.Compact style={{ width: '100%', marginTop: 6 }}>
            <Input readOnly value={pageUrl} aria-label={t('share.pageAddress')} />
            <Button
              icon={<CopyOutlined />}
              onClick={() => void copy(`${page.page_title} ${pageUrl}`)}
            >
              {t('common.copy')}
            </Button>
          </Space.Compact>
          {target.canEdit && (
            <div style={{ marginTop: 12 }}>
              <Space>
                <Switch
                  checked={!!shareKey}
                  loading={busy}
                  onChange={(on) => void switchSinglePage(on)}
                  aria-label={t('share.singlePage')}
                  data-testid="share-single-switch"
                />
                <span>{t('share.singlePage')}</span>
              </Space>
              <Typography.Paragraph type="secondary" style={{ margin: '6px 0 0' }}>
                {t('share.singlePageHelp')}
              </Typography.Paragraph>
              {shareUrl && (
                <Space.Compact style={{ width: '100%', marginTop: 6 }}>
                  <Input
                    readOnly
                    value={shareUrl}
                    aria-label={t('share.singlePageLink')}
                    data-testid="share-single-url"
                  />
                  <Button
                    icon={<CopyOutlined />}
                    onClick={() => void copy(`${page.page_title} ${shareUrl}`)}
                  >
                    {t('common.copy')}
                  </Button>
                </Space.Compact>
              )}
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
