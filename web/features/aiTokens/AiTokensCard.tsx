/**
 * The user centre's AI tokens (for the MCP endpoint, `/mcp`): the list — masked, with permission,
 * scope, expiry, last use and state — and making, revoking, resetting and deleting tokens. A raw
 * token is shown once, right after it was made or reset, with a copy button and the ready
 * configuration for an AI editor; afterwards only its mask exists anywhere.
 */
import { CopyOutlined, PlusOutlined, RobotOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteAiToken, listAiTokens, resetAiToken, revokeAiToken, type AiToken } from './api';
import { ConnectSnippets, copyText } from './ConnectSnippets';
import { CreateTokenModal } from './CreateTokenModal';

function itemCount(token: AiToken): number {
  try {
    const ids: unknown = JSON.parse(token.allowed_items);
    return Array.isArray(ids) ? ids.length : 0;
  } catch {
    return 0;
  }
}

export function AiTokensCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [tokens, setTokens] = useState<AiToken[] | null>(null);
  const [creating, setCreating] = useState(false);
  /** The raw token just made or reset: shown in the modal once, then forgotten. */
  const [revealed, setRevealed] = useState<string | null>(null);

  const reload = useCallback(() => {
    listAiTokens()
      .then(({ tokens: list }) => setTokens(list))
      .catch(() => setTokens([]));
  }, []);
  useEffect(reload, [reload]);

  async function act(run: () => Promise<unknown>, done: string) {
    try {
      await run();
      void message.success(done);
    } catch {
      // alerted by the API client
    }
    reload();
  }

  const state = (token: AiToken) =>
    !token.is_active ? (
      <Tag color="default">{t('aiTokens.revoked')}</Tag>
    ) : token.is_expired ? (
      <Tag color="orange">{t('aiTokens.expired')}</Tag>
    ) : (
      <Tag color="green">{t('aiTokens.active')}</Tag>
    );

  return (
    <div data-testid="ai-tokens">
      <Typography.Paragraph type="secondary">
        <RobotOutlined /> {t('aiTokens.intro')}
      </Typography.Paragraph>
      <Space style={{ marginBottom: 12 }}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="ai-token-create"
        >
          {t('aiTokens.create')}
        </Button>
      </Space>
      <Table<AiToken>
        size="small"
        rowKey="id"
        loading={tokens === null}
        dataSource={tokens ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('aiTokens.none') }}
        onRow={(token) => ({ 'data-testid': `ai-token-row-${token.id}` }) as never}
        columns={[
          { title: t('aiTokens.name'), dataIndex: 'name', render: (name: string) => name || '—' },
          {
            title: t('aiTokens.token'),
            dataIndex: 'token_preview',
            render: (preview: string) => <Typography.Text code>{preview}</Typography.Text>,
          },
          {
            title: t('aiTokens.permission'),
            dataIndex: 'permission',
            render: (permission: string) =>
              permission === 'read' ? t('aiTokens.read') : t('aiTokens.write'),
          },
          {
            title: t('aiTokens.scope'),
            render: (_: unknown, token) =>
              token.scope === 'all'
                ? t('aiTokens.allItems')
                : t('aiTokens.selectedCount', { count: itemCount(token) }),
          },
          {
            title: t('aiTokens.expiresAt'),
            dataIndex: 'expires_at',
            render: (at: string | null) => at || t('aiTokens.never'),
          },
          {
            title: t('aiTokens.lastUsed'),
            dataIndex: 'last_used_at',
            render: (at: string | null) => at || t('aiTokens.neverUsed'),
          },
          { title: t('aiTokens.state'), render: (_: unknown, token) => state(token) },
          {
            title: '',
            render: (_: unknown, token) => (
              <Space size={4} wrap>
                {token.is_active === 1 && (
                  <Popconfirm
                    title={t('aiTokens.revokeConfirm')}
                    okText={t('aiTokens.revoke')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => act(() => revokeAiToken(token.id), t('aiTokens.revokedDone'))}
                  >
                    <Button size="small" data-testid="ai-token-revoke">
                      {t('aiTokens.revoke')}
                    </Button>
                  </Popconfirm>
                )}
                <Popconfirm
                  title={t('aiTokens.resetConfirm')}
                  okText={t('aiTokens.reset')}
                  cancelText={t('common.cancel')}
                  onConfirm={async () => {
                    try {
                      setRevealed((await resetAiToken(token.id)).token);
                    } catch {
                      // alerted
                    }
                    reload();
                  }}
                >
                  <Button size="small" data-testid="ai-token-reset">
                    {t('aiTokens.reset')}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={t('aiTokens.deleteConfirm')}
                  okText={t('common.delete')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel')}
                  onConfirm={() => act(() => deleteAiToken(token.id), t('aiTokens.deletedDone'))}
                >
                  <Button size="small" danger data-testid="ai-token-delete">
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        {t('aiTokens.connectTitle')}
      </Typography.Title>
      <ConnectSnippets token={null} />

      <CreateTokenModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setRevealed(token);
          reload();
        }}
      />
      <Modal
        open={revealed !== null}
        title={t('aiTokens.revealTitle')}
        onCancel={() => setRevealed(null)}
        onOk={() => setRevealed(null)}
        okText={t('aiTokens.revealDone')}
        cancelButtonProps={{ style: { display: 'none' } }}
        width={680}
        destroyOnHidden
      >
        {revealed !== null && (
          <div data-testid="ai-token-revealed">
            <Alert type="warning" showIcon message={t('aiTokens.revealOnce')} />
            <Space.Compact style={{ width: '100%', margin: '12px 0' }}>
              <Typography.Text
                code
                data-testid="ai-token-raw"
                style={{ flex: 1, padding: '4px 8px', wordBreak: 'break-all' }}
              >
                {revealed}
              </Typography.Text>
              <Button
                icon={<CopyOutlined />}
                data-testid="ai-token-copy"
                onClick={async () => {
                  if (await copyText(revealed)) void message.success(t('aiTokens.copied'));
                  else void message.error(t('aiTokens.copyFailed'));
                }}
              >
                {t('aiTokens.copy')}
              </Button>
            </Space.Compact>
            <ConnectSnippets token={revealed} />
          </div>
        )}
      </Modal>
    </div>
  );
}
