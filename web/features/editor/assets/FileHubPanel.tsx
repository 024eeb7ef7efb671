/** The file hub: the user's own uploads (the attachment manager), each bindable to this page. */
import { LinkOutlined } from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Attachment } from '../../../api/types';
import { AttachmentManager } from '../../attachments/AttachmentManager';
import { bindFileToPage } from './api';

export function FileHubPanel({ pageId, onBound }: { pageId: number; onBound: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();

  async function bind(file: Attachment) {
    try {
      await bindFileToPage(Number(file.file_id), pageId);
      message.success(t('editAssets.hub.bound', { name: file.display_name }));
      onBound();
    } catch {
      // alerted
    }
  }

  return (
    <AttachmentManager
      rowAction={(file) => (
        <Tooltip title={t('editAssets.hub.bind')}>
          <Button
            type="text"
            icon={<LinkOutlined rotate={45} />}
            data-testid="hub-bind"
            data-name={file.display_name}
            aria-label={t('editAssets.hub.bindFile', { name: file.display_name })}
            onClick={() => bind(file)}
          />
        </Tooltip>
      )}
    />
  );
}
