/** The files attached to the open page: readers download them (spec 001 §6). */
import { DownloadOutlined } from '@ant-design/icons';
import { List, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageAttachments } from '../api';
import type { PageAttachment } from '../types';

export default function AttachmentsDialog({
  pageId,
  onClose,
}: {
  pageId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<PageAttachment[] | null>(null);
  useEffect(() => {
    pageAttachments(pageId).then(setFiles, () => setFiles([]));
  }, [pageId]);
  return (
    <Modal
      open
      title={t('reader.attachments.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <List<PageAttachment>
        loading={files === null}
        dataSource={files ?? []}
        locale={{ emptyText: t('reader.attachments.empty') }}
        renderItem={(file) => (
          <List.Item
            actions={[
              <a key="get" href={file.url} target="_blank" rel="noopener noreferrer" download>
                <DownloadOutlined /> {t('reader.attachments.download')}
              </a>,
            ]}
          >
            <List.Item.Meta title={file.display_name} description={file.addtime} />
          </List.Item>
        )}
      />
    </Modal>
  );
}
