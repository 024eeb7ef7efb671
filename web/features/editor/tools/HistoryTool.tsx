/**
 * "History versions" in the editor's toolbar (spec 001 §2, §8): the reader's history dialog
 * (versions with time, author and remark; preview; compare in a new window; an empty history
 * closes it with a note) plus what only an editor may do: edit a version's remark in place and
 * restore a version into the editor — the author then saves, which makes it the new version.
 * A page that was never saved has no history: the button is disabled.
 */
import { HistoryOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unescapeHtml } from '../../../markdown/unescape';
import type { HistoryEntry } from '../../reader/types';
import type { EditorToolProps } from '../contract';
import { updateHistoryRemark } from './documentToolsApi';
import { ToolButton } from '../ToolButton';
import { useAppFeedback } from '../../../components/AppFeedback';

// The dialog brings the Markdown renderer for previews: loaded on the first click.
const HistoryDialog = lazy(() => import('../../reader/dialogs/HistoryDialog'));

/** Server limit of a version remark (models/pages/pageHistory.ts). */
const MAX_REMARK_LENGTH = 1000;

function EditableRemark({ pageId, row }: { pageId: number; row: HistoryEntry }) {
  const { t } = useTranslation();
  const { message } = useAppFeedback();
  const [remark, setRemark] = useState(row.page_comments);

  async function save(next: string) {
    if (next === remark) return;
    try {
      await updateHistoryRemark(pageId, row.page_history_id, next);
      setRemark(next);
      message.success(t('editTools.history.remarkSaved'));
    } catch {
      // alerted by the API client; the old remark stays
    }
  }

  return (
    <Typography.Text
      data-testid={`history-remark-${row.page_history_id}`}
      editable={{
        onChange: save,
        maxLength: MAX_REMARK_LENGTH,
        tooltip: t('editTools.history.editRemark'),
      }}
    >
      {remark}
    </Typography.Text>
  );
}

export function HistoryTool({ editor, page }: EditorToolProps) {
  const { t } = useTranslation();
  const { modal, message } = useAppFeedback();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);

  function confirmRestore(row: HistoryEntry) {
    modal.confirm({
      title: t('editTools.history.restoreTitle'),
      content: t('editTools.history.restoreContent', { time: row.addtime }),
      okText: t('editTools.history.restore'),
      cancelText: t('common.cancel'),
      onOk: () => {
        if (!editor.isWritable()) {
          message.warning(t('editTools.readOnly'));
          return;
        }
        editor.setText(unescapeHtml(row.page_content));
        setOpen(false);
        editor.focus();
        message.success(t('editTools.history.restored'));
      },
    });
  }

  const saved = page.pageId > 0;
  return (
    <>
      <ToolButton
        testId="tool-history"
        icon={<HistoryOutlined />}
        tip={saved ? t('editTools.history.button') : t('editTools.history.unsaved')}
        disabled={!saved}
        onClick={() => setOpen(true)}
      />
      {open && (
        <Suspense fallback={null}>
          <HistoryDialog
            pageId={page.pageId}
            onClose={close}
            renderRemark={(row) => <EditableRemark pageId={page.pageId} row={row} />}
            extraActions={(row) => (
              <Button
                type="link"
                size="small"
                data-testid={`history-restore-${row.page_history_id}`}
                onClick={() => confirmRestore(row)}
              >
                {t('editTools.history.restore')}
              </Button>
            )}
          />
        </Suspense>
      )}
    </>
  );
}
