/** Transfer a team (and every item bound to it) to another user, confirmed with the password. */
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { attornTeam } from '../../api/teams';
import type { Team } from '../../api/types';
import { FormModal } from '../../components/FormModal';

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
  return (
    <FormModal<{ username: string; password: string }>
      title={t('teams.attornTitle', { name: team.team_name })}
      okText={t('teams.attornSubmit')}
      danger
      intro={
        <Alert
          type="warning"
          showIcon
          title={t('teams.attornWarning')}
          style={{ marginBottom: 16 }}
        />
      }
      requiredMark={false}
      save={(values) => attornTeam(Number(team.id), values.username.trim(), values.password)}
      onClose={onClose}
      onSaved={onDone}
    >
      <Form.Item
        name="username"
        label={t('items.attorn.username')}
        rules={[{ required: true, whitespace: true, message: t('items.attorn.usernameRequired') }]}
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
    </FormModal>
  );
}
