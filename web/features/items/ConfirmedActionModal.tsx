/**
 * The item actions that need the login password (spec 000 §4–§5): archive, attorn (transfer to
 * another user) and delete. Single-sign-on users have no password of their own here and confirm a
 * deletion by typing the item's name instead (reference accounts §9.14).
 */
import { Alert, App, Form, Input, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { archiveItem, attornItem, deleteItem } from '../../api/items';
import type { ItemListEntry } from '../../api/types';
import { userInfo } from '../../api/user';

export type ConfirmedAction = 'archive' | 'attorn' | 'delete';

/** The delete dialog's spinner gives up after 5 s (spec 000 §9) even if the answer is slow. */
const DELETE_LOADING_MS = 5_000;

interface Values {
  username?: string;
  password?: string;
  project_name?: string;
}

export default function ConfirmedActionModal({
  action,
  item,
  onClose,
  onDone,
}: {
  action: ConfirmedAction;
  item: ItemListEntry;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (action === 'delete')
      userInfo({ alert: false }).then(
        (info) => setSso(info.is_sso === '1'),
        () => {},
      );
    return () => clearTimeout(timer.current);
  }, [action]);

  async function submit(values: Values) {
    const itemId = Number(item.item_id);
    setBusy(true);
    if (action === 'delete') timer.current = setTimeout(() => setBusy(false), DELETE_LOADING_MS);
    try {
      if (action === 'archive') await archiveItem(itemId, values.password ?? '');
      else if (action === 'attorn')
        await attornItem(itemId, (values.username ?? '').trim(), values.password ?? '');
      else
        await deleteItem(
          itemId,
          sso ? { project_name: values.project_name ?? '' } : { password: values.password ?? '' },
        );
      message.success(t(`items.${action}.done`));
      onDone();
      onClose();
    } catch {
      // alerted by the API client
    } finally {
      clearTimeout(timer.current);
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t(`items.${action}.title`, { name: item.item_name })}
      okText={t(`items.${action}.submit`)}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: action !== 'archive' }}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert
        type={action === 'delete' ? 'error' : 'warning'}
        showIcon
        title={t(`items.${action}.warning`)}
        style={{ marginBottom: 16 }}
      />
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        {action === 'attorn' && (
          <Form.Item
            name="username"
            label={t('items.attorn.username')}
            rules={[
              { required: true, whitespace: true, message: t('items.attorn.usernameRequired') },
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        )}
        {sso && action === 'delete' ? (
          <Form.Item
            name="project_name"
            label={t('items.delete.typeName', { name: item.item_name })}
            rules={[{ required: true, message: t('items.delete.typeNameRequired') }]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        ) : (
          <Form.Item
            name="password"
            label={t('items.confirmPassword')}
            rules={[{ required: true, message: t('auth.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
