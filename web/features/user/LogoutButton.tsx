/** Logout: ends the session everywhere, clears the browser's storage, back to the start page. */
import { LogoutOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logoutAndLeave } from '../../auth/session';

export function LogoutButton({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      danger
      icon={<LogoutOutlined />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        // A full page load: nothing of the session (socket, cached lists) outlives it, and no
        // login guard gets to send the user to the login screen on the way out.
        void logoutAndLeave((to) => {
          onDone?.();
          window.location.assign(to);
        });
      }}
    >
      {t('user.logout')}
    </Button>
  );
}
