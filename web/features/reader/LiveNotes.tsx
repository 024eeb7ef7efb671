/**
 * What the live connection says about the open page (style practice 9: visible sync state): who
 * is editing it (the lock holder), who else is reading it, and that a newer version was saved —
 * a discreet note with a reload button, so a reader is never yanked away mid-sentence.
 */
import { EditOutlined, EyeOutlined, ReloadOutlined, RobotOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageSavedPayload, PresenceUser } from '../../../realtime/socketEvents';

export function LiveNotes({
  lockHolder,
  others,
  saved,
  deleted,
  onReload,
}: {
  lockHolder: string | null;
  others: PresenceUser[];
  saved: PageSavedPayload | null;
  deleted: boolean;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const viewers = others.filter((u) => !u.agent && u.username !== lockHolder);
  const agents = others.filter((u) => u.agent);
  const hasBar = !!lockHolder || viewers.length > 0 || agents.length > 0;
  return (
    <>
      {hasBar && (
        <Space wrap size={8} style={{ marginBottom: 12 }}>
          {lockHolder && (
            <Tag icon={<EditOutlined />} color="orange" data-testid="lock-holder">
              {t('reader.live.editing', { name: lockHolder })}
            </Tag>
          )}
          {agents.map((agent) => (
            <Tag
              key={`agent-${agent.agent?.token_id}`}
              icon={<RobotOutlined />}
              color="purple"
              data-testid="presence-agent"
            >
              {/* The label names the agent ("Claude via token 'docs-bot'"); the icon says what it is. */}
              {agent.username}
            </Tag>
          ))}
          {viewers.length > 0 && (
            <span data-testid="presence">
              <EyeOutlined style={{ color: '#8c8c8c', marginRight: 6 }} />
              <Avatar.Group max={{ count: 5 }} size="small">
                {viewers.map((user) => (
                  <Tooltip key={user.uid} title={user.username}>
                    <Avatar
                      size="small"
                      style={{ background: '#2f6fde' }}
                      data-testid="presence-user"
                    >
                      {user.username.slice(0, 1).toUpperCase()}
                    </Avatar>
                  </Tooltip>
                ))}
              </Avatar.Group>
              <span style={{ marginLeft: 6, color: '#8c8c8c', fontSize: 12 }}>
                {t('reader.live.alsoHere', { names: viewers.map((u) => u.username).join(', ') })}
              </span>
            </span>
          )}
        </Space>
      )}
      {deleted ? (
        <Alert
          type="warning"
          showIcon
          title={t('reader.live.deleted')}
          style={{ marginBottom: 12 }}
          data-testid="live-deleted"
        />
      ) : (
        saved && (
          <Alert
            type="info"
            showIcon
            data-testid="live-updated"
            style={{ marginBottom: 12 }}
            title={t('reader.live.updated', { name: saved.author.username })}
            action={
              <Button
                size="small"
                icon={<ReloadOutlined />}
                onClick={onReload}
                data-testid="live-reload"
              >
                {t('reader.live.reload')}
              </Button>
            }
          />
        )
      )}
    </>
  );
}
