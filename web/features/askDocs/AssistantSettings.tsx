/**
 * Item settings → Assistant: the item's managers switch "Ask the docs" on or off, let guests in
 * (open items only: the server refuses it on an item with a visit password) and write the welcome
 * message (item/getAiConfig|setAiConfig).
 */
import { App, Button, Form, Input, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/request';

interface AssistantValues {
  enabled: boolean;
  guest_enabled: boolean;
  welcome_message: string;
}

interface AiConfigRow {
  enabled: number;
  guest_enabled: number;
  welcome_message: string;
}

export function AssistantSettings({ itemId, isPrivate }: { itemId: number; isPrivate: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [values, setValues] = useState<AssistantValues | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    request<AiConfigRow>('item/getAiConfig', { item_id: itemId }).then(
      (row) =>
        setValues({
          enabled: row.enabled === 1,
          guest_enabled: row.guest_enabled === 1,
          welcome_message: row.welcome_message,
        }),
      () => undefined,
    );
  }, [itemId]);

  async function submit(next: AssistantValues) {
    setBusy(true);
    try {
      await request('item/setAiConfig', {
        item_id: itemId,
        enabled: next.enabled ? 1 : 0,
        guest_enabled: next.guest_enabled && !isPrivate ? 1 : 0,
        welcome_message: next.welcome_message ?? '',
      });
      message.success(t('itemSetting.saved'));
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  if (!values) return <Spin />;
  return (
    <Form
      name="itemSettingAssistant"
      layout="vertical"
      style={{ maxWidth: 560 }}
      initialValues={values}
      onFinish={submit}
    >
      <Typography.Paragraph type="secondary">{t('askDocs.settingsIntro')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('askDocs.enabled')} valuePropName="checked">
        <Switch data-testid="assistant-enabled" />
      </Form.Item>
      <Form.Item
        name="guest_enabled"
        label={t('askDocs.guests')}
        valuePropName="checked"
        extra={isPrivate ? t('askDocs.guestsOpenOnly') : undefined}
      >
        <Switch disabled={isPrivate} data-testid="assistant-guests" />
      </Form.Item>
      <Form.Item name="welcome_message" label={t('askDocs.welcomeMessage')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={2000}
          placeholder={t('askDocs.welcome')}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="assistant-save">
        {t('itemSetting.submit')}
      </Button>
    </Form>
  );
}
