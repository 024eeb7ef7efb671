/** `/item/group/index`: the group manager as a screen. */
import { useTranslation } from 'react-i18next';
import { ScreenCard } from '../layout/ScreenCard';
import { GroupManager } from './GroupManager';

export default function GroupsPage() {
  const { t } = useTranslation();
  return (
    <ScreenCard title={t('groups.manage')} back="/item/index">
      <GroupManager />
    </ScreenCard>
  );
}
