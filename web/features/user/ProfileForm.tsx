/** The user's name (shown instead of the username where set). Username itself cannot change. */
import { App, Button, Descriptions, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateName, userInfo } from '../../api/user';
import { updateStoredLogin } from '../../auth/storage';
import { useLogin } from '../../auth/useLogin';

export function ProfileForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const login = useLogin();
  const [name, setName] = useState(login?.name ?? '');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // The stored login may be older than a change made on another device.
    userInfo().then(
      (info) => {
        updateStoredLogin({ name: info.name ?? '', groupid: String(info.groupid) });
        setName(info.name ?? '');
      },
      () => {},
    );
  }, []);

  async function save() {
    setBusy(true);
    try {
      await updateName(name.trim());
      updateStoredLogin({ name: name.trim() });
      message.success(t('common.saved'));
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Descriptions
      column={1}
      size="small"
      items={[
        { key: 'username', label: t('user.username'), children: login?.username },
        {
          key: 'name',
          label: t('user.name'),
          children: (
            <Space.Compact style={{ width: '100%', maxWidth: 360 }}>
              <Input
                value={name}
                maxLength={64}
                placeholder={t('user.unnamed')}
                aria-label={t('user.name')}
                onChange={(e) => setName(e.target.value)}
                onPressEnter={() => void save()}
              />
              <Button type="primary" loading={busy} onClick={() => void save()}>
                {t('common.save')}
              </Button>
            </Space.Compact>
          ),
        },
      ]}
    />
  );
}
