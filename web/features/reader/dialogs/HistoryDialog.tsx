/**
 * A page's kept versions (spec 001 §2 "page history"): when, who, remark; each can be read here or
 * compared with the current version on the diff screen (a new window, as ShowDoc opens it). An
 * empty history closes the dialog with a note (spec 001 §8).
 */
import { App, Button, Modal, Space, Table } from 'antd';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { unescapeHtml } from '../../../markdown';
import { Markdown } from '../../../markdown/Markdown';
import { pageHistory } from '../api';
import { diffPath } from '../paths';
import type { HistoryEntry } from '../types';

// A whiteboard's version is shown as its picture (fabric loads only for whiteboards).
const BoardImage = lazy(() => import('../../whiteboard/BoardImage'));
const looksLikeBoard = (content: string) =>
  content.trimStart().startsWith('{') &&
  content.includes('"objects"') &&
  content.includes('"version"');

export default function HistoryDialog({
  pageId,
  onClose,
  renderRemark,
  extraActions,
}: {
  pageId: number;
  onClose: () => void;
  /** The editor's history (editor/tools/HistoryTool.tsx): remarks editable in place… */
  renderRemark?: (row: HistoryEntry) => ReactNode;
  /** …and more actions per version (restore). */
  extraActions?: (row: HistoryEntry) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rows, setRows] = useState<HistoryEntry[] | null>(null);
  const [reading, setReading] = useState<HistoryEntry | null>(null);

  useEffect(() => {
    pageHistory(pageId).then((list) => {
      if (list.length === 0) {
        message.info(t('reader.history.empty'));
        onClose();
      } else setRows(list);
    }, onClose);
  }, [pageId, onClose, message, t]);

  return (
    <Modal
      open
      title={t('reader.history.title')}
      footer={null}
      onCancel={onClose}
      width={760}
      destroyOnHidden
    >
      <Table<HistoryEntry>
        rowKey="page_history_id"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: t('reader.history.time'), dataIndex: 'addtime', width: 170 },
          { title: t('reader.history.author'), dataIndex: 'author_username', width: 140 },
          {
            title: t('reader.history.remark'),
            dataIndex: 'page_comments',
            render: renderRemark && ((_v, row) => renderRemark(row)),
          },
          {
            title: t('common.actions'),
            width: extraActions ? 250 : 170,
            render: (_v, row) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setReading(row)}>
                  {t('reader.history.view')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  href={diffPath(pageId, row.page_history_id)}
                  target="_blank"
                  rel="noopener"
                >
                  {t('reader.history.diff')}
                </Button>
                {extraActions?.(row)}
              </Space>
            ),
          },
        ]}
      />
      {reading && (
        <Modal
          open
          title={`${reading.page_title} — ${reading.addtime}`}
          footer={null}
          onCancel={() => setReading(null)}
          width={860}
          destroyOnHidden
        >
          {looksLikeBoard(unescapeHtml(reading.page_content)) ? (
            <Suspense fallback={null}>
              <BoardImage content={unescapeHtml(reading.page_content)} label={reading.page_title} />
            </Suspense>
          ) : (
            <Markdown source={unescapeHtml(reading.page_content)} />
          )}
        </Modal>
      )}
    </Modal>
  );
}
