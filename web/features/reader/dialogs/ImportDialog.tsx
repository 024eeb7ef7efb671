/**
 * Importing a file into this item (spec 001 §7 `import/auto` with `item_id`): a ShowDoc export,
 * Markdown zip, Swagger/OpenAPI or Postman file. While the server has no import API the user is
 * told so plainly.
 */
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Modal, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, upload } from '../../../api/request';

const UNKNOWN_ROUTE = 10404;

export default function ImportDialog({
  itemId,
  onClose,
  onImported,
}: {
  itemId: number;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'unavailable' | 'failed'>('idle');
  const [message, setMessage] = useState('');

  async function send(file: File) {
    setState('busy');
    try {
      await upload(
        'import/auto',
        file,
        file.name,
        { item_id: itemId },
        { alert: false, manager: false },
      );
      setState('done');
      onImported();
    } catch (error) {
      const code = error instanceof ApiRequestError ? error.code : -1;
      setState(
        code === UNKNOWN_ROUTE || (error as ApiRequestError).status === 404
          ? 'unavailable'
          : 'failed',
      );
      setMessage(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Modal open title={t('reader.import.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Upload.Dragger
        accept=".zip,.json,.yaml,.yml,.md"
        showUploadList={false}
        disabled={state === 'busy'}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t('reader.import.help')}</p>
      </Upload.Dragger>
      {state === 'done' && (
        <Alert style={{ marginTop: 12 }} type="success" title={t('reader.import.done')} />
      )}
      {state === 'unavailable' && (
        <Alert style={{ marginTop: 12 }} type="info" title={t('reader.import.unavailable')} />
      )}
      {state === 'failed' && <Alert style={{ marginTop: 12 }} type="error" title={message} />}
    </Modal>
  );
}
