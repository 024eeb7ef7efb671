/**
 * A modal holding one form: Save submits it, `save` runs with the values, and the modal closes
 * after `onSaved` once it succeeded. A failed save keeps the modal open with what was typed (the
 * API client has already shown the error).
 */
import { Form, Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FormModal<T extends object>({
  title,
  name,
  initialValues,
  okText,
  danger,
  intro,
  requiredMark,
  save,
  onClose,
  onSaved,
  children,
}: {
  title: ReactNode;
  /** The form's name (prefixes its fields' ids). */
  name?: string;
  initialValues?: Partial<T>;
  /** The submit button's text (Save when left out). */
  okText?: ReactNode;
  /** A red submit button, for what cannot be undone. */
  danger?: boolean;
  /** Shown above the form (a warning). */
  intro?: ReactNode;
  requiredMark?: boolean;
  save: (values: T) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<T>();
  const [busy, setBusy] = useState(false);

  async function submit(values: T) {
    setBusy(true);
    try {
      await save(values);
      onSaved();
      onClose();
    } catch {
      // alerted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={title}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={danger ? { danger: true } : undefined}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {intro}
      <Form<T>
        form={form}
        name={name}
        layout="vertical"
        onFinish={submit}
        initialValues={initialValues}
        requiredMark={requiredMark}
      >
        {children}
      </Form>
    </Modal>
  );
}
