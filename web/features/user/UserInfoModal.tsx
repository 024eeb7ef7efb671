/**
 * The header's user dialog (spec 000 §2 "user info"): username, editable name, change password,
 * language, logout, and the way to the user centre.
 */
import { Divider, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { LogoutButton } from './LogoutButton';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';

export default function UserInfoModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [changing, setChanging] = useState(false);
  return (
    <Modal open title={t('user.infoTitle')} footer={null} onCancel={onClose} destroyOnHidden>
      <ProfileForm />
      <Divider style={{ margin: '12px 0' }} />
      {changing ? (
        <PasswordForm />
      ) : (
        <a role="button" onClick={() => setChanging(true)}>
          {t('user.changePassword')}
        </a>
      )}
      <Divider style={{ margin: '12px 0' }} />
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space>
          <LanguageSwitch />
          <Link to="/user/setting" onClick={onClose}>
            {t('user.centre')}
          </Link>
        </Space>
        <LogoutButton onDone={onClose} />
      </Space>
    </Modal>
  );
}
