/** The editor's attachment dialog: the page's files and, for managers, the file hub. */
import { Modal, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandle, EditorPageContext } from '../contract';
import { FileHubPanel } from './FileHubPanel';
import { PageFilesPanel } from './PageFilesPanel';

export function PageAttachmentsDialog({
  page,
  editor,
  onCount,
  onClose,
}: {
  page: EditorPageContext;
  editor: EditorHandle;
  onCount: (count: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState('files');
  const files = (
    <PageFilesPanel page={page} editor={editor} onCount={onCount} onInserted={onClose} />
  );
  return (
    <Modal
      open
      title={t('editAssets.attachments.title')}
      footer={null}
      onCancel={onClose}
      width={page.canManage ? 900 : 560}
      destroyOnHidden
    >
      <div data-testid="editor-attachments-dialog">
        {page.canManage ? (
          <Tabs
            activeKey={tab}
            onChange={setTab}
            // Each tab loads when shown: a file bound in the hub is listed on going back.
            destroyOnHidden
            items={[
              {
                key: 'files',
                label: (
                  <span data-testid="attachments-tab-files">
                    {t('editAssets.attachments.pageFiles')}
                  </span>
                ),
                children: files,
              },
              {
                key: 'hub',
                label: <span data-testid="attachments-tab-hub">{t('editAssets.hub.title')}</span>,
                children: <FileHubPanel pageId={page.pageId} onBound={() => setTab('files')} />,
              },
            ]}
          />
        ) : (
          files
        )}
      </div>
    </Modal>
  );
}
