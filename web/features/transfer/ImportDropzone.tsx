/**
 * The import box shared by the "new item" import tab and the reader's "import into this item"
 * dialog: drop or choose a file, watch a progress bar fed by the server's `import:progress`
 * pushes for this upload, then see what was imported (and any note, such as folded folders).
 */
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Progress, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importFile, type ImportAnswer } from './api';
import { useLiveEvent } from '../../live/useLiveEvent';

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; done: number; total: number }
  | { kind: 'done'; answer: ImportAnswer; done: number; total: number }
  | { kind: 'failed'; message: string };

export function ImportDropzone({
  itemId,
  onImported,
}: {
  /** 0 = import as a new item. */
  itemId: number;
  onImported: (answer: ImportAnswer) => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const importId = useRef('');

  useLiveEvent('import:progress', (progress) => {
    if (progress.import_id !== importId.current) return;
    // The last push may arrive after the upload's answer: a finished import keeps its bar.
    setState((s) =>
      s.kind === 'busy' || s.kind === 'done'
        ? { ...s, done: progress.done, total: progress.total }
        : s,
    );
  });

  async function send(file: File) {
    importId.current = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    setState({ kind: 'busy', done: 0, total: 0 });
    try {
      const answer = await importFile(file, itemId, importId.current, { alert: false });
      setState((s) => ({
        kind: 'done',
        answer,
        done: s.kind === 'busy' ? s.done : 0,
        total: s.kind === 'busy' ? s.total : 0,
      }));
      onImported(answer);
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  const busy = state.kind === 'busy';
  const counted = (state.kind === 'busy' || state.kind === 'done') && state.total > 0;
  const percent = counted ? Math.round((state.done / state.total) * 100) : 0;
  return (
    <div data-testid="import-dropzone">
      <Upload.Dragger
        accept=".zip,.json,.md,.markdown,.yaml,.yml"
        multiple={false}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          void send(file as File);
          return false; // sent by send(): token, import id, envelope
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">
          {t(itemId > 0 ? 'dataTransfer.import.dropInto' : 'dataTransfer.import.dropNew')}
        </p>
        <p className="ant-upload-hint">{t('dataTransfer.import.hint')}</p>
      </Upload.Dragger>
      <div style={{ marginTop: 12 }} aria-live="polite">
        {(busy || counted) && (
          <div data-testid="import-progress" data-percent={percent}>
            <Progress
              percent={percent}
              status={busy ? 'active' : 'success'}
              aria-label={t('dataTransfer.import.busy')}
            />
            <Typography.Text type="secondary">
              {counted
                ? t('dataTransfer.import.progress', { done: state.done, total: state.total })
                : t('dataTransfer.import.busy')}
            </Typography.Text>
          </div>
        )}
        {state.kind === 'done' && (
          <Alert
            type="success"
            showIcon
            title={t(itemId > 0 ? 'dataTransfer.import.doneInto' : 'dataTransfer.import.doneNew', {
              count: state.answer.pages,
            })}
            description={state.answer.notes.length ? state.answer.notes.join(' ') : undefined}
          />
        )}
        {state.kind === 'failed' && <Alert type="error" showIcon title={state.message} />}
      </div>
    </div>
  );
}
