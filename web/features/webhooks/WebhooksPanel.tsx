/**
 * Item settings → Webhooks: the item's hooks (generic signed JSON or a chat service's incoming
 * webhook), made with a URL, a preset and the events to send; a new generic hook's secret is
 * shown once. Per hook: send a test message, switch on/off, rotate the secret, delete, and its
 * delivery log (status, response code, latency, attempts) with redelivery.
 */
import { PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteWebhook,
  listWebhooks,
  redeliverWebhook,
  rotateWebhookSecret,
  saveWebhook,
  testWebhook,
  WEBHOOK_EVENTS,
  WEBHOOK_PRESETS,
  webhookDeliveries,
  type Webhook,
  type WebhookDelivery,
  type WebhookPreset,
} from './api';

const SIGNED: readonly WebhookPreset[] = ['feishu', 'dingtalk'];

interface CreateValues {
  url: string;
  preset: WebhookPreset;
  events: string[];
  secret?: string;
}

function CreateModal(props: {
  itemId: number;
  open: boolean;
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateValues>();
  const [busy, setBusy] = useState(false);
  const preset = Form.useWatch('preset', form);

  async function submit(values: CreateValues) {
    setBusy(true);
    try {
      const { secret } = await saveWebhook({ item_id: props.itemId, ...values });
      form.resetFields();
      props.onCreated(secret);
    } catch {
      // alerted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={props.open}
      title={t('webhooks.create')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('webhooks.createOk')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form
        form={form}
        name="webhookCreate"
        layout="vertical"
        onFinish={submit}
        initialValues={{ preset: 'json', events: [...WEBHOOK_EVENTS] }}
      >
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          rules={[{ required: true, type: 'url', message: t('webhooks.urlRequired') }]}
        >
          <Input placeholder="https://" autoComplete="off" />
        </Form.Item>
        <Form.Item name="preset" label={t('webhooks.preset')}>
          <Select
            options={WEBHOOK_PRESETS.map((p) => ({ value: p, label: t(`webhooks.presets.${p}`) }))}
          />
        </Form.Item>
        {SIGNED.includes(preset) && (
          <Form.Item
            name="secret"
            label={t('webhooks.botSecret')}
            extra={t('webhooks.botSecretHint')}
          >
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item
          name="events"
          label={t('webhooks.events')}
          rules={[{ required: true, type: 'array', min: 1, message: t('webhooks.eventsRequired') }]}
        >
          <Checkbox.Group
            options={WEBHOOK_EVENTS.map((e) => ({
              value: e,
              label: t(`webhooks.eventNames.${e}`),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DeliveryLog(props: { itemId: number; hook: Webhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rows, setRows] = useState<WebhookDelivery[] | null>(null);
  const { itemId, hook } = props;

  const reload = useCallback(() => {
    if (!hook) return;
    webhookDeliveries(itemId, hook.id).then(
      ({ list }) => setRows(list),
      () => setRows([]),
    );
  }, [itemId, hook]);
  useEffect(reload, [reload]);

  async function redeliver(id: number) {
    try {
      await redeliverWebhook(itemId, id);
      void message.success(t('webhooks.redelivered'));
    } catch {
      // alerted
    }
    setTimeout(reload, 800);
  }

  const color = { success: 'green', failed: 'red', pending: 'orange', sending: 'blue' } as const;
  return (
    <Drawer
      open={!!hook}
      onClose={props.onClose}
      width={760}
      title={t('webhooks.log')}
      extra={<Button onClick={reload}>{t('webhooks.refresh')}</Button>}
    >
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        locale={{ emptyText: t('webhooks.noDeliveries') }}
        columns={[
          { title: t('webhooks.time'), dataIndex: 'created_at' },
          { title: t('webhooks.event'), dataIndex: 'event' },
          {
            title: t('webhooks.status'),
            render: (_, row) => (
              <Tag color={color[row.status]}>{t(`webhooks.statuses.${row.status}`)}</Tag>
            ),
          },
          { title: t('webhooks.responseCode'), render: (_, row) => row.response_code || '—' },
          { title: t('webhooks.latency'), render: (_, row) => `${row.latency_ms} ms` },
          { title: t('webhooks.attempts'), dataIndex: 'attempts' },
          {
            title: t('webhooks.error'),
            render: (_, row) => (
              <Typography.Text type="secondary" ellipsis={{ tooltip: row.error }}>
                {row.error || row.next_attempt_at}
              </Typography.Text>
            ),
          },
          {
            key: 'actions',
            render: (_, row) => (
              <Button size="small" onClick={() => void redeliver(row.id)}>
                {t('webhooks.redeliver')}
              </Button>
            ),
          },
        ]}
      />
    </Drawer>
  );
}

export function WebhooksPanel({ itemId }: { itemId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);

  const reload = useCallback(() => {
    listWebhooks(itemId).then(setHooks, () => setHooks([]));
  }, [itemId]);
  useEffect(reload, [reload]);

  async function act(run: () => Promise<unknown>, done?: string) {
    try {
      await run();
      if (done) void message.success(done);
    } catch {
      // alerted
    }
    reload();
  }

  async function sendTest(hook: Webhook) {
    try {
      const result = await testWebhook(itemId, hook.id);
      if (result.status === 'success')
        void message.success(t('webhooks.testOk', { code: result.response_code }));
      else
        void message.error(
          t('webhooks.testFailed', { error: result.error || result.response_code }),
        );
    } catch {
      // alerted
    }
  }

  async function rotate(hook: Webhook) {
    try {
      setRevealed((await rotateWebhookSecret(itemId, hook.id)).secret);
    } catch {
      // alerted
    }
  }

  return (
    <>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('webhooks.intro')}</Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('webhooks.create')}
        </Button>
        <Table<Webhook>
          rowKey="id"
          loading={hooks === null}
          dataSource={hooks ?? []}
          pagination={false}
          locale={{ emptyText: t('webhooks.empty') }}
          columns={[
            {
              title: t('webhooks.url'),
              render: (_, hook) => (
                <Typography.Text ellipsis={{ tooltip: hook.url }} style={{ maxWidth: 280 }}>
                  {hook.url}
                </Typography.Text>
              ),
            },
            {
              title: t('webhooks.preset'),
              render: (_, hook) => t(`webhooks.presets.${hook.preset}`),
            },
            {
              title: t('webhooks.events'),
              render: (_, hook) => t('webhooks.eventCount', { count: hook.events.length }),
            },
            {
              title: t('webhooks.enabled'),
              render: (_, hook) => (
                <Space direction="vertical" size={0}>
                  <Switch
                    size="small"
                    checked={hook.enabled === 1}
                    aria-label={t('webhooks.enabled')}
                    onChange={(on) =>
                      void act(() => saveWebhook({ item_id: itemId, id: hook.id, enabled: on }))
                    }
                  />
                  {hook.disabled_reason && (
                    <Typography.Text type="danger">
                      {t('webhooks.autoDisabled', { reason: hook.disabled_reason })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'actions',
              render: (_, hook) => (
                <Space wrap>
                  <Button size="small" onClick={() => void sendTest(hook)}>
                    {t('webhooks.test')}
                  </Button>
                  <Button size="small" onClick={() => setLogOf(hook)}>
                    {t('webhooks.log')}
                  </Button>
                  {hook.preset === 'json' && (
                    <Popconfirm
                      title={t('webhooks.rotateConfirm')}
                      onConfirm={() => void rotate(hook)}
                    >
                      <Button size="small">{t('webhooks.rotate')}</Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={t('webhooks.deleteConfirm')}
                    onConfirm={() =>
                      void act(() => deleteWebhook(itemId, hook.id), t('webhooks.deleted'))
                    }
                  >
                    <Button size="small" danger>
                      {t('webhooks.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Space>
      <CreateModal
        itemId={itemId}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(secret) => {
          setCreating(false);
          if (secret) setRevealed(secret);
          else void message.success(t('webhooks.created'));
          reload();
        }}
      />
      <Modal
        open={revealed !== null}
        title={t('webhooks.secretTitle')}
        onOk={() => setRevealed(null)}
        onCancel={() => setRevealed(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert
          type="warning"
          showIcon
          message={t('webhooks.secretOnce')}
          style={{ marginBottom: 12 }}
        />
        <Typography.Paragraph copyable code>
          {revealed}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('webhooks.secretHint')}</Typography.Paragraph>
      </Modal>
      <DeliveryLog itemId={itemId} hook={logOf} onClose={() => setLogOf(null)} />
    </>
  );
}
