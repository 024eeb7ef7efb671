/**
 * The files bound to the page being edited, 5 per screen (spec 001 §9). Managers upload, insert
 * (a Markdown link or picture at the cursor) and delete with confirmation; everyone else can only
 * download (spec 001 §6).
 */
import {
  DeleteOutlined,
  DownloadOutlined,
  ImportOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { App, Button, List, Popconfirm, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageAttachments } from '../../reader/api';
import type { PageAttachment } from '../../reader/types';
import type { EditorHandle, EditorPageContext } from '../contract';
import { removePageFile, uploadPageFile } from './api';
import { attachmentMarkdown } from './markdown';

export const PAGE_FILES_PAGE_SIZE = 5;

/** Spec 002 §5: the tip asks for attachments under 4 MB (advice; the server's limit is its own). */
const SIZE_TIP_MB = 4;

export function PageFilesPanel({
  page,
  editor,
  onCount,
  onInserted,
}: {
  page: EditorPageContext;
  editor: EditorHandle;
  /** The number of bound files, after every load (the toolbar's badge). */
  onCount: (count: number) => void;
  onInserted: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [files, setFiles] = useState<PageAttachment[] | null>(null);
  const [uploading, setUploading] = useState(false);

  const load = useCallback(() => {
    pageAttachments(page.pageId).then(
      (rows) => {
        setFiles(rows);
        onCount(rows.length);
      },
      () => setFiles([]),
    );
  }, [page.pageId, onCount]);
  useEffect(load, [load]);

  async function upload(file: File) {
    setUploading(true);
    try {
      await uploadPageFile(file, page.itemId, page.pageId);
      message.success(t('editAssets.attachments.uploaded', { name: file.name }));
      load();
    } catch {
      // the server's error_message is alerted by the API client (spec 001 §8)
    } finally {
      setUploading(false);
    }
  }

  function insert(file: PageAttachment) {
    if (!editor.isWritable()) {
      message.warning(t('editAssets.readOnly'));
      return;
    }
    editor.insert(attachmentMarkdown(file));
    onInserted();
    editor.focus();
  }

  async function remove(file: PageAttachment) {
    try {
      await removePageFile(Number(file.file_id), page.pageId);
      message.success(t('common.deleted'));
      load();
    } catch {
      // alerted
    }
  }

  const actions = (file: PageAttachment) => [
    <Button
      key="download"
      type="text"
      size="small"
      icon={<DownloadOutlined />}
      href={file.url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('editAssets.attachments.download', { name: file.display_name })}
    />,
    ...(page.canManage
      ? [
          <Button
            key="insert"
            size="small"
            icon={<ImportOutlined />}
            data-testid="attachment-insert"
            onClick={() => insert(file)}
          >
            {t('editAssets.attachments.insert')}
          </Button>,
          <Popconfirm
            key="delete"
            title={t('editAssets.attachments.deleteConfirm', { name: file.display_name })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(file)}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              data-testid="attachment-delete"
              aria-label={t('editAssets.attachments.delete', { name: file.display_name })}
            />
          </Popconfirm>,
        ]
      : []),
  ];

  return (
    <div>
      {page.canManage ? (
        <div style={{ marginBottom: 12 }}>
          <Upload
            showUploadList={false}
            multiple={false}
            disabled={uploading}
            customRequest={({ file }) => void upload(file as File)}
          >
            <Button icon={<UploadOutlined />} loading={uploading} data-testid="attachment-upload">
              {t('editAssets.attachments.upload')}
            </Button>
          </Upload>
          <Typography.Text type="secondary" style={{ marginInlineStart: 12 }}>
            {t('editAssets.attachments.uploadTip')}
          </Typography.Text>
          <Typography.Paragraph
            type="secondary"
            style={{ margin: '8px 0 0' }}
            data-testid="attachment-size-tip"
          >
            {t('editAssets.attachments.sizeTip', { size: SIZE_TIP_MB })}
          </Typography.Paragraph>
        </div>
      ) : (
        <Typography.Paragraph type="secondary">
          {t('editAssets.attachments.readOnlyTip')}
        </Typography.Paragraph>
      )}
      <List<PageAttachment>
        loading={files === null}
        dataSource={files ?? []}
        rowKey={(file) => String(file.file_id)}
        locale={{ emptyText: t('editAssets.attachments.empty') }}
        pagination={
          (files?.length ?? 0) > PAGE_FILES_PAGE_SIZE
            ? { pageSize: PAGE_FILES_PAGE_SIZE, size: 'small', showSizeChanger: false }
            : false
        }
        renderItem={(file) => (
          <List.Item
            data-testid="attachment-row"
            data-name={file.display_name}
            actions={actions(file)}
          >
            <List.Item.Meta title={file.display_name} description={file.addtime} />
          </List.Item>
        )}
      />
    </div>
  );
}
