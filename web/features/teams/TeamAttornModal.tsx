/** Transfer a team (and every item bound to it) to another user, confirmed with the password. */
import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attornTeam } from '../../api/teams';
import type { Team } from '../../api/types';

export function TeamAttornModal({
  team,
  onClose,
  onDone,
}: {
  team: Team;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ username: string; password: string }>();
  const [busy, setBusy] = useState(false);

  async function submit(values: { username: string; password: string }) {
    setBusy(true);
    try {
      await attornTeam(Number(team.id), values.username.trim(), values.password);
      onDone();
      onClose();
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t('teams.attornTitle', { name: team.team_name })}
      okText={t('teams.attornSubmit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        title={t('teams.attornWarning')}
        style={{ marginBottom: 16 }}
      />
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="username"
          label={t('items.attorn.username')}
          rules={[
            { required: true, whitespace: true, message: t('items.attorn.usernameRequired') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('items.confirmPassword')}
          rules={[{ required: true, message: t('auth.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
