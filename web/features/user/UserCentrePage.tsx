/** `/user/setting`: the user centre — profile, password, plan, AI tokens, logout. */
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { AiTokensCard } from '../aiTokens/AiTokensCard';
import { ScreenCard } from '../layout/ScreenCard';
import { LogoutButton } from './LogoutButton';
import { PasswordForm } from './PasswordForm';
import { PlanCard } from './PlanCard';
import { ProfileForm } from './ProfileForm';

export default function UserCentrePage() {
  const { t } = useTranslation();
  return (
    <ScreenCard title={t('user.centre')} back="/item/index" extra={<LogoutButton />}>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card size="small" title={t('user.profile')}>
            <ProfileForm />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={t('user.plan')}>
            <PlanCard />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={t('user.changePassword')}>
            <PasswordForm />
          </Card>
        </Col>
        <Col xs={24} id="ai-tokens">
          <Card size="small" title={t('aiTokens.title')}>
            <AiTokensCard />
          </Card>
        </Col>
      </Row>
    </ScreenCard>
  );
}
