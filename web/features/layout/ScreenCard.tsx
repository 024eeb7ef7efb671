/** A workspace screen's card: title, optional back link and actions, then the content. */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function ScreenCard({
  title,
  back,
  extra,
  children,
}: {
  title: ReactNode;
  /** Where the back arrow goes (none when absent). */
  back?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card
      variant="borderless"
      style={{ boxShadow: '0 1px 6px rgba(0,0,0,0.05)' }}
      title={
        <Space>
          {back && (
            <Button
              type="text"
              aria-label={t('common.back')}
              icon={<ArrowLeftOutlined />}
              onClick={() => void navigate(back)}
            />
          )}
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        </Space>
      }
      extra={extra}
    >
      {children}
    </Card>
  );
}
