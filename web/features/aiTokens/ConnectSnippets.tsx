/**
 * "Connect your AI editor": the configuration an MCP client takes to reach this site's `/mcp`
 * with a token — the plain `mcpServers` JSON (Cursor, Windsurf, Cline and most clients), and
 * Claude Desktop's, which starts remote servers through `mcp-remote`. Filled with the raw token
 * right after it was made, with a placeholder otherwise.
 */
import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function mcpUrl(): string {
  return new URL('/mcp', window.location.origin).toString();
}

export function snippets(token: string): Record<'generic' | 'cursor' | 'claude', string> {
  const url = mcpUrl();
  const remote = {
    mcpServers: { quire: { url, headers: { Authorization: `Bearer ${token}` } } },
  };
  const claude = {
    mcpServers: {
      quire: {
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'],
        env: { AUTH_HEADER: `Bearer ${token}` },
      },
    },
  };
  return {
    generic: JSON.stringify(remote, null, 2),
    cursor: JSON.stringify(remote, null, 2),
    claude: JSON.stringify(claude, null, 2),
  };
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function ConnectSnippets({ token }: { token: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const texts = snippets(token ?? t('aiTokens.tokenPlaceholder'));
  const tab = (key: keyof typeof texts, label: string, where: string) => ({
    key,
    label,
    children: (
      <div data-testid={`ai-token-snippet-${key}`}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {where}
        </Typography.Paragraph>
        <pre
          style={{
            background: 'rgba(127,127,127,0.08)',
            padding: 12,
            borderRadius: 6,
            overflowX: 'auto',
            fontSize: 12,
            margin: 0,
          }}
        >
          {texts[key]}
        </pre>
        <Button
          size="small"
          icon={<CopyOutlined />}
          style={{ marginTop: 8 }}
          onClick={async () => {
            if (await copyText(texts[key])) void message.success(t('aiTokens.copied'));
            else void message.error(t('aiTokens.copyFailed'));
          }}
        >
          {t('aiTokens.copyConfig')}
        </Button>
      </div>
    ),
  });
  return (
    <div data-testid="ai-token-connect">
      <Typography.Paragraph>{t('aiTokens.connectIntro', { url: mcpUrl() })}</Typography.Paragraph>
      <Tabs
        size="small"
        items={[
          tab('generic', t('aiTokens.snippetGeneric'), t('aiTokens.snippetGenericWhere')),
          tab('cursor', 'Cursor', t('aiTokens.snippetCursorWhere')),
          tab('claude', 'Claude Desktop', t('aiTokens.snippetClaudeWhere')),
        ]}
      />
    </div>
  );
}
