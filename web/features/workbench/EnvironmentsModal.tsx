/**
 * The item's environments and their variables (ShowDoc's RunApi environment editor): add or
 * delete environments; per environment add, change or delete variables, a variable marked secret
 * being shown masked (and never sent to read-only members by the server).
 */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, Input, Modal, Space, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addEnv,
  deleteEnv,
  deleteVariable,
  type Env,
  saveVariable,
  type Variable,
} from './workbenchApi';

function VariableTable({
  itemId,
  envId,
  rows,
  onChanged,
}: {
  itemId: number;
  envId: number;
  rows: Variable[];
  onChanged: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [secret, setSecret] = useState(false);

  async function add() {
    if (!name.trim()) return;
    await saveVariable(itemId, envId, name.trim(), value, secret);
    setName('');
    setValue('');
    setSecret(false);
    await onChanged();
  }

  return (
    <>
      <Table<Variable>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: t('workbench.vars.empty') }}
        onRow={(row) => ({ 'data-testid': `workbench-var-${row.var_name}` }) as object}
        columns={[
          { title: t('workbench.vars.name'), dataIndex: 'var_name' },
          {
            title: t('workbench.vars.value'),
            render: (_, row) =>
              row.is_secret ? (
                <Typography.Text type="secondary" data-testid="workbench-var-masked">
                  {t('workbench.vars.masked')}
                </Typography.Text>
              ) : (
                <Typography.Text code>{row.var_value}</Typography.Text>
              ),
          },
          {
            title: '',
            width: 48,
            render: (_, row) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('workbench.vars.delete')}
                onClick={async () => {
                  await deleteVariable(itemId, row.id);
                  await onChanged();
                }}
              />
            ),
          },
        ]}
      />
      <Space.Compact block style={{ marginTop: 8 }}>
        <Input
          data-testid="workbench-var-name"
          aria-label={t('workbench.vars.name')}
          placeholder={t('workbench.vars.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        {secret ? (
          <Input.Password
            data-testid="workbench-var-value"
            aria-label={t('workbench.vars.value')}
            placeholder={t('workbench.vars.value')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <Input
            data-testid="workbench-var-value"
            aria-label={t('workbench.vars.value')}
            placeholder={t('workbench.vars.value')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
        <Button type="primary" data-testid="workbench-var-add" onClick={add}>
          {t('workbench.vars.add')}
        </Button>
      </Space.Compact>
      <Checkbox
        style={{ marginTop: 4 }}
        data-testid="workbench-var-secret"
        checked={secret}
        onChange={(e) => setSecret(e.target.checked)}
      >
        {t('workbench.vars.secret')}
      </Checkbox>
    </>
  );
}

export function EnvironmentsModal({
  itemId,
  envs,
  rows,
  onChanged,
  onClose,
}: {
  itemId: number;
  envs: Env[];
  rows: Variable[];
  onChanged: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [active, setActive] = useState<string | undefined>(undefined);

  async function add() {
    if (!name.trim()) return;
    const { env_id } = await addEnv(itemId, name.trim());
    setName('');
    await onChanged();
    setActive(String(env_id));
  }

  return (
    <Modal
      open
      width={720}
      title={t('workbench.env.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="workbench-env-modal">
        <Space.Compact block style={{ marginBottom: 12 }}>
          <Input
            data-testid="workbench-env-name"
            aria-label={t('workbench.env.name')}
            placeholder={t('workbench.env.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onPressEnter={add}
          />
          <Button type="primary" data-testid="workbench-env-add" onClick={add}>
            {t('workbench.env.add')}
          </Button>
        </Space.Compact>
        {envs.length === 0 ? (
          <Empty description={t('workbench.env.empty')} />
        ) : (
          <Tabs
            activeKey={active ?? String(envs[0].id)}
            onChange={setActive}
            items={envs.map((env) => ({
              key: String(env.id),
              label: <span data-testid={`workbench-env-tab-${env.env_name}`}>{env.env_name}</span>,
              children: (
                <>
                  <VariableTable
                    itemId={itemId}
                    envId={env.id}
                    rows={rows.filter((r) => r.env_id === env.id)}
                    onChanged={onChanged}
                  />
                  <Button
                    danger
                    style={{ marginTop: 12 }}
                    data-testid="workbench-env-delete"
                    onClick={async () => {
                      await deleteEnv(env.id);
                      setActive(undefined);
                      await onChanged();
                    }}
                  >
                    {t('workbench.env.delete')}
                  </Button>
                </>
              ),
            }))}
          />
        )}
      </div>
    </Modal>
  );
}
