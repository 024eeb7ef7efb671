/**
 * "Save and notify" (spec 001 §4): a remark for the page's subscribers, then save with the notify
 * flag and close the editor.
 */
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function NotifySaveModal({
  open,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  onSubmit(remark: string): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [remark, setRemark] = useState('');
  return (
    <Modal
      open={open}
      title={t('editor.notify.title')}
      okText={t('editor.notify.submit')}
      cancelText={t('common.cancel')}
      onOk={() => onSubmit(remark.trim())}
      onCancel={onCancel}
      destroyOnHidden
    >
      <p style={{ color: '#667' }}>{t('editor.notify.hint')}</p>
      <Input.TextArea
        rows={4}
        maxLength={1000}
        value={remark}
        onChange={(e) => setRemark(e.target.value)}
        placeholder={t('editor.notify.placeholder')}
        data-testid="notify-remark"
      />
    </Modal>
  );
}
