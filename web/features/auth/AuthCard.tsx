/** The card that holds the login, registration and item-password forms. */
import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { PageFrame } from '../../components/PageFrame';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageFrame width={480}>
      <Card variant="borderless" style={{ boxShadow: '0 2px 12px rgba(0,0,0,0.06)' }}>
        <Typography.Title level={2} style={{ textAlign: 'center', marginTop: 0 }}>
          {title}
        </Typography.Title>
        {children}
      </Card>
    </PageFrame>
  );
}
