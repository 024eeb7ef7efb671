/**
 * The HTTP test tool's environment picker (ShowDoc's RunApi environments): choose the item's
 * environment (remembered per user with `runapi/selectEnv`), whose variables fill `{{name}}` in
 * the request; the item's global parameters (`runapi/getGlobalParam`) come along. "Manage" opens
 * the environments and variables editor. Secret values arrive only for editors (the server blanks
 * them for read-only members) and are shown masked.
 */
import { SettingOutlined } from '@ant-design/icons';
import { Button, Select, Space, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Env,
  globalParams,
  type GlobalParams,
  listEnvs,
  listVariables,
  selectedEnv,
  selectEnv,
  type Variable,
} from './workbenchApi';
import { variablesFor } from './variables';

const EnvironmentsModal = lazy(() =>
  import('./EnvironmentsModal').then((m) => ({ default: m.EnvironmentsModal })),
);

export interface WorkbenchState {
  envId: number;
  variables: Record<string, string>;
  globals: GlobalParams | null;
}

export function EnvironmentBar({
  itemId,
  onChange,
}: {
  itemId: number;
  onChange: (state: WorkbenchState) => void;
}) {
  const { t } = useTranslation();
  const [envs, setEnvs] = useState<Env[]>([]);
  const [rows, setRows] = useState<Variable[]>([]);
  const [globals, setGlobals] = useState<GlobalParams | null>(null);
  const [envId, setEnvId] = useState(0);
  const [managing, setManaging] = useState(false);

  const reload = useCallback(async () => {
    const [list, vars, chosen, global] = await Promise.all([
      listEnvs(itemId).catch(() => [] as Env[]),
      listVariables(itemId).catch(() => [] as Variable[]),
      selectedEnv(itemId).catch(() => 0),
      globalParams(itemId).catch(() => null),
    ]);
    setEnvs(list);
    setRows(vars);
    setGlobals(global);
    setEnvId((current) => {
      const wanted = current || chosen;
      return list.some((e) => e.id === wanted) ? wanted : (list[0]?.id ?? 0);
    });
  }, [itemId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const variables = useMemo(() => variablesFor(rows, envId), [rows, envId]);
  useEffect(() => onChange({ envId, variables, globals }), [envId, variables, globals, onChange]);

  function choose(id: number) {
    setEnvId(id);
    void selectEnv(id).catch(() => {});
  }

  const count = Object.keys(variables).length;
  return (
    <Space wrap style={{ marginBottom: 8 }} data-testid="workbench-env-bar" data-env-id={envId}>
      <span>{t('workbench.env.label')}</span>
      <Select
        aria-label={t('workbench.env.label')}
        data-testid="workbench-env-select"
        style={{ minWidth: 180 }}
        value={envId || undefined}
        placeholder={t('workbench.env.none')}
        options={envs.map((e) => ({ value: e.id, label: e.env_name }))}
        onChange={choose}
      />
      <Tooltip title={t('workbench.env.manage')}>
        <Button
          icon={<SettingOutlined />}
          data-testid="workbench-env-manage"
          aria-label={t('workbench.env.manage')}
          onClick={() => setManaging(true)}
        />
      </Tooltip>
      {count > 0 && (
        <Tag data-testid="workbench-var-count">{t('workbench.env.variables', { count })}</Tag>
      )}
      <Suspense fallback={null}>
        {managing && (
          <EnvironmentsModal
            itemId={itemId}
            envs={envs}
            rows={rows}
            onChanged={reload}
            onClose={() => setManaging(false)}
          />
        )}
      </Suspense>
    </Space>
  );
}
