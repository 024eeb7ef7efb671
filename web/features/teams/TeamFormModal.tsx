/** Create or rename a team. */
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveTeam } from '../../api/teams';
import type { Team } from '../../api/types';

export function TeamFormModal({
  team,
  onClose,
  onSaved,
}: {
  team: Team | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ team_name: string }>();
  const [busy, setBusy] = useState(false);

  async function submit(values: { team_name: string }) {
    setBusy(true);
    try {
      await saveTeam({ id: team ? Number(team.id) : 0, team_name: values.team_name.trim() });
      onSaved();
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
      title={team ? t('teams.rename') : t('teams.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ team_name: team?.team_name ?? '' }}
      >
        <Form.Item
          name="team_name"
          label={t('teams.name')}
          rules={[{ required: true, whitespace: true, message: t('teams.nameRequired') }]}
        >
          <Input maxLength={100} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
