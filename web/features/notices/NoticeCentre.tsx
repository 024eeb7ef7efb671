/**
 * The notice centre (spec 000 §2): tabs for system reminders and system announcements, and a way
 * to turn on desktop notifications (asked on a click: browsers refuse unprompted requests).
 */
import { Badge, Button, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnnouncementList } from './AnnouncementList';
import { ANNOUNCE_TAB, REMIND_TAB } from './constants';
import { ReminderList } from './ReminderList';
import { useUnread } from './unreadContext';

export type NoticeTab = typeof REMIND_TAB | typeof ANNOUNCE_TAB;

function DesktopNotificationSwitch() {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  if (permission !== 'default') return null;
  return (
    <Button
      size="small"
      onClick={() => {
        void Notification.requestPermission().then(setPermission);
      }}
    >
      {t('notices.enableDesktop')}
    </Button>
  );
}

export function NoticeCentre({
  tab,
  onTabChange,
}: {
  tab: NoticeTab;
  onTabChange: (tab: NoticeTab) => void;
}) {
  const { t } = useTranslation();
  const { remind, announce } = useUnread();
  const label = (text: string, count: number) => (
    <Badge dot={count > 0} offset={[6, 0]}>
      {text}
    </Badge>
  );
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => onTabChange(key as NoticeTab)}
      tabBarExtraContent={<DesktopNotificationSwitch />}
      destroyOnHidden
      items={[
        {
          key: REMIND_TAB,
          label: label(t('notices.reminders'), remind),
          children: <ReminderList />,
        },
        {
          key: ANNOUNCE_TAB,
          label: label(t('notices.announcements'), announce),
          children: <AnnouncementList />,
        },
      ]}
    />
  );
}
