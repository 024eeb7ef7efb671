/** `/message/index?dtab=remindList|announcementList`: the notice centre as a screen. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenCard } from '../layout/ScreenCard';
import { ANNOUNCE_TAB, REMIND_TAB } from './constants';
import { NoticeCentre, type NoticeTab } from './NoticeCentre';

export default function NoticesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab: NoticeTab = search.get('dtab') === ANNOUNCE_TAB ? ANNOUNCE_TAB : REMIND_TAB;
  return (
    <ScreenCard title={t('notices.title')} back="/item/index">
      <NoticeCentre
        tab={tab}
        onTabChange={(next) => setSearch({ dtab: next }, { replace: true })}
      />
    </ScreenCard>
  );
}
