/**
 * Importing a file as a new item (create dialog's third tab): drag a ShowDoc export, Markdown
 * zip, Swagger/OpenAPI or Postman file onto the box. The upload goes to `import/auto`; while the
 * server has no import API yet, the user is told so plainly instead of seeing a raw 404.
 */
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importFile } from '../../api/items';
import { ApiRequestError } from '../../api/request';

/** The router's answer for an unknown controller/action (reference accounts §0.1). */
const UNKNOWN_ROUTE = 10404;

export function ImportPanel({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'unavailable' | 'failed'>('idle');
  const [message, setMessage] = useState('');

  async function send(file: File) {
    setState('busy');
    try {
      await importFile(file, { alert: false });
      setState('done');
      onImported();
    } catch (error) {
      if (
        error instanceof ApiRequestError &&
        (error.code === UNKNOWN_ROUTE || error.status === 404)
      )
        setState('unavailable');
      else {
        setMessage(error instanceof Error ? error.message : String(error));
        setState('failed');
      }
    }
  }

  return (
    <div>
      <Upload.Dragger
        accept=".zip,.json,.md,.yaml,.yml"
        multiple={false}
        showUploadList={false}
        disabled={state === 'busy'}
        beforeUpload={(file) => {
          void send(file as File);
          return false; // we send it ourselves (token, envelope, messages)
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('items.import.drop')}</p>
        <p className="ant-upload-hint">{t('items.import.hint')}</p>
      </Upload.Dragger>
      <div style={{ marginTop: 12 }} aria-live="polite">
        {state === 'busy' && <Typography.Text>{t('items.import.busy')}</Typography.Text>}
        {state === 'done' && <Alert type="success" showIcon title={t('items.import.done')} />}
        {state === 'unavailable' && (
          <Alert type="info" showIcon title={t('items.import.unavailable')} />
        )}
        {state === 'failed' && <Alert type="error" showIcon title={message} />}
      </div>
    </div>
  );
}
