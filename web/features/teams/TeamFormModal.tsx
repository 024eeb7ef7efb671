/** Create or rename a team. */
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveTeam } from '../../api/teams';
import type { Team } from '../../api/types';
import { FormModal } from '../../components/FormModal';

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
  return (
    <FormModal<{ team_name: string }>
      title={team ? t('teams.rename') : t('teams.create')}
      initialValues={{ team_name: team?.team_name ?? '' }}
      save={(values) =>
        saveTeam({ id: team ? Number(team.id) : 0, team_name: values.team_name.trim() })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Form.Item
        name="team_name"
        label={t('teams.name')}
        rules={[{ required: true, whitespace: true, message: t('teams.nameRequired') }]}
      >
        <Input maxLength={100} autoFocus />
      </Form.Item>
    </FormModal>
  );
}
