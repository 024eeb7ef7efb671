/** The notice centre as the header's dialog (opens on the tab with something new). */
import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANNOUNCE_TAB, REMIND_TAB } from './constants';
import { NoticeCentre, type NoticeTab } from './NoticeCentre';
import { useUnread } from './unreadContext';

export default function NoticeModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { remind, announce } = useUnread();
  const [tab, setTab] = useState<NoticeTab>(!remind && announce ? ANNOUNCE_TAB : REMIND_TAB);
  return (
    <Modal
      open
      title={t('notices.title')}
      footer={null}
      onCancel={onClose}
      width={760}
      destroyOnHidden
    >
      <NoticeCentre tab={tab} onTabChange={setTab} />
    </Modal>
  );
}
