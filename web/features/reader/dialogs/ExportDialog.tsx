/**
 * Exporting the item (spec 001 §7): Word or Markdown, as browser downloads of `export/word` and
 * `export/markdown` with the user's token in the address, as ShowDoc's clients do.
 */
import { FileMarkdownOutlined, FileWordOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../../auth/storage';

export default function ExportDialog({ itemId, onClose }: { itemId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const link = (kind: 'word' | 'markdown') => {
    const query = new URLSearchParams({ item_id: String(itemId), user_token: getToken() });
    if (kind === 'word') query.set('cat_id', '0');
    return `/api/export/${kind}?${query.toString()}`;
  };
  return (
    <Modal open title={t('reader.export.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('reader.export.help')}</Typography.Paragraph>
      <Space>
        <Button icon={<FileWordOutlined />} href={link('word')} target="_blank" rel="noopener">
          {t('reader.export.word')}
        </Button>
        <Button
          icon={<FileMarkdownOutlined />}
          href={link('markdown')}
          target="_blank"
          rel="noopener"
        >
          {t('reader.export.markdown')}
        </Button>
      </Space>
    </Modal>
  );
}
