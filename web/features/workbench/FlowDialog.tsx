/**
 * Test flows (ShowDoc's RunApi flows): build a flow from the item's API pages (add, drag into
 * order, enable or disable steps, JSONPath extractions that pass a value from a step's answer to
 * the next steps as `{{name}}` — FlowSteps.tsx), choose the environment, rounds, interval,
 * whether to continue on error and to save the answers as the pages' examples, run it on the
 * server (`flow/run`, through the HTTP relay's address policy) or from the browser where CORS
 * allows (browserFlow.ts) and see each step's request, answer, time and pass/fail. A run's steps
 * show as they come (`flow:progress`, also for runs started by others on the item). Loaded on
 * demand (AssetTools).
 */
import { DeleteOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Checkbox,
  Input,
  InputNumber,
  Modal,
  Progress,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getItemPassword } from '../../auth/storage';
import { useLive } from '../../live/context';
import { LiveProvider } from '../../live/LiveProvider';
import { useLiveEvent } from '../../live/useLiveEvent';
import type { FlowProgressPayload } from '../../../realtime/socketEvents';
import {
  addFlowStep,
  deleteFlow,
  deleteFlowStep,
  type Env,
  enableFlowSteps,
  type Flow,
  type FlowRun,
  type FlowStep,
  flowSteps,
  itemPages,
  listEnvs,
  listFlows,
  runFlow,
  saveFlow,
  sortFlowSteps,
} from './workbenchApi';
import { runFlowInBrowser } from './browserFlow';
import { FlowSteps } from './FlowSteps';

interface LiveRun {
  runId: string;
  flowId: number;
  steps: StepResult[];
}

type StepResult = FlowRun['steps'][number] & {
  url?: string;
  method?: string;
  page_title?: string;
  error?: string;
  request_headers?: [string, string][];
  request_body?: string;
  response_body?: string;
  /** Browser runs: whether the step went from the browser or through the relay. */
  via?: 'browser' | 'relay' | '';
};

function ResultTable({ steps, testId }: { steps: StepResult[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Table<StepResult>
      size="small"
      data-testid={testId}
      rowKey={(row) =>
        `${row.round}-${(row as { flow_page_id?: number }).flow_page_id ?? row.page_id}`
      }
      pagination={false}
      dataSource={steps}
      onRow={(row) =>
        ({
          'data-testid': 'workbench-flow-result',
          'data-pass': row.pass ? 'true' : 'false',
          'data-via': row.via ?? 'server',
        }) as object
      }
      expandable={{
        // Pushed steps carry no request or answer: only the run's own answer has them.
        rowExpandable: (row) => row.response_body !== undefined,
        expandedRowRender: (row) => (
          <div>
            <Typography.Text strong>{t('workbench.flow.request')}</Typography.Text>
            <pre style={{ maxHeight: 200, overflow: 'auto' }}>
              {[
                `${row.method ?? ''} ${row.url ?? ''}`,
                ...(row.request_headers ?? []).map(([n, v]) => `${n}: ${v}`),
                '',
                row.request_body ?? '',
              ].join('\n')}
            </pre>
            <Typography.Text strong>{t('workbench.flow.response')}</Typography.Text>
            <pre style={{ maxHeight: 200, overflow: 'auto' }} data-testid="workbench-flow-response">
              {row.response_body ?? ''}
            </pre>
          </div>
        ),
      }}
      columns={[
        { title: t('workbench.flow.round'), dataIndex: 'round', width: 64 },
        { title: t('workbench.flow.step'), dataIndex: 'page_title' },
        {
          title: t('workbench.flow.url'),
          render: (_, row) => (
            <>
              {row.via && (
                <Tag>
                  {row.via === 'browser'
                    ? t('workbench.flowMore.viaBrowser')
                    : t('workbench.flowMore.viaRelay')}
                </Tag>
              )}
              <Typography.Text
                data-testid="workbench-flow-result-url"
                ellipsis
                style={{ maxWidth: 260 }}
              >
                {`${row.method ?? ''} ${row.url ?? ''}`}
              </Typography.Text>
            </>
          ),
        },
        { title: t('workbench.flow.status'), render: (_, row) => row.status || '—', width: 72 },
        {
          title: t('workbench.flow.time'),
          render: (_, row) => t('workbench.flow.ms', { ms: row.duration_ms }),
          width: 90,
        },
        {
          title: t('workbench.flow.result'),
          width: 120,
          render: (_, row) =>
            row.pass ? (
              <Tag color="green">{t('workbench.flow.pass')}</Tag>
            ) : (
              <Tag color="red" title={row.error}>
                {t('workbench.flow.fail')}
              </Tag>
            ),
        },
      ]}
    />
  );
}

function FlowDialogBody({ itemId, onClose }: { itemId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { socket } = useLive();
  const [flows, setFlows] = useState<Flow[]>([]);
  const [flowId, setFlowId] = useState(0);
  const [steps, setSteps] = useState<FlowStep[]>([]);
  const [envs, setEnvs] = useState<Env[]>([]);
  const [pages, setPages] = useState<{ page_id: number; title: string }[]>([]);
  const [newName, setNewName] = useState('');
  const [pickPage, setPickPage] = useState<number | undefined>(undefined);
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState<FlowRun | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState<FlowProgressPayload | null>(null);
  // The steps of the latest run on the item as their pushes arrive (own runs and others').
  const [liveRun, setLiveRun] = useState<LiveRun | null>(null);
  const [fromBrowser, setFromBrowser] = useState(false);
  // A browser run stops when the dialog closes.
  const browserRun = useRef<AbortController | null>(null);
  useEffect(() => () => browserRun.current?.abort(), []);
  const flow = flows.find((f) => f.id === flowId) ?? null;

  const reloadFlows = useCallback(async () => {
    const list = await listFlows(itemId).catch(() => [] as Flow[]);
    setFlows(list);
    setFlowId((current) => (list.some((f) => f.id === current) ? current : (list[0]?.id ?? 0)));
  }, [itemId]);
  const reloadSteps = useCallback(async () => {
    setSteps(flowId ? await flowSteps(flowId).catch(() => []) : []);
  }, [flowId]);

  useEffect(() => {
    void reloadFlows();
    listEnvs(itemId).then(setEnvs, () => {});
    itemPages(itemId).then(setPages, () => {});
  }, [itemId, reloadFlows]);
  useEffect(() => {
    void reloadSteps();
    setRun(null);
  }, [reloadSteps]);

  // The item's room brings the progress of runs started by others.
  useEffect(() => {
    if (!socket) return;
    const watch = () =>
      socket.emit(
        'watch',
        { item_id: itemId, item_password: getItemPassword() || undefined },
        () => {},
      );
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
    };
  }, [socket, itemId]);
  useLiveEvent('flow:progress', (payload) => {
    if (payload.item_id !== itemId) return;
    setLive(payload);
    const step = payload.step;
    setLiveRun((current) => {
      const base =
        current?.runId === payload.run_id
          ? current
          : { runId: payload.run_id, flowId: payload.flow_id, steps: [] };
      return step ? { ...base, steps: [...base.steps, step as StepResult] } : base;
    });
  });

  async function create() {
    if (!newName.trim()) return;
    const made = await saveFlow({ item_id: itemId, flow_name: newName.trim() });
    setNewName('');
    await reloadFlows();
    setFlowId(made.id);
  }

  async function update(patch: Record<string, number>) {
    if (!flow) return;
    // Shown (and used by Run) at once: a run started right after picking an environment must
    // call that environment's host, not the one the server's list still names.
    setFlows((current) => current.map((f) => (f.id === flow.id ? { ...f, ...patch } : f)));
    await saveFlow({ id: flow.id, ...patch });
    await reloadFlows();
  }

  async function reorder(order: number[]) {
    // Shown at once in the new order; the server's list follows.
    setSteps((current) =>
      order.map((id) => current.find((s) => s.id === id)).filter((s): s is FlowStep => !!s),
    );
    await sortFlowSteps(flowId, order);
    await reloadSteps();
  }

  async function toggle(step: FlowStep, enabled: boolean) {
    const ids = steps.filter((s) => (s.id === step.id ? enabled : s.enabled)).map((s) => s.id);
    await enableFlowSteps(flowId, ids.length ? ids : [0]);
    await reloadSteps();
  }

  async function start() {
    if (!flow) return;
    setRunning(true);
    setProblem(null);
    setRun(null);
    try {
      const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      if (fromBrowser) {
        // No pushes for a browser run: its steps show here as they come.
        setLiveRun({ runId: `${runId}-live`, flowId: flow.id, steps: [] });
        const result = await runFlowInBrowser({
          itemId,
          flow,
          steps,
          envId: flow.env_id,
          runId,
          signal: (browserRun.current = new AbortController()).signal,
          onStep: (step) =>
            setLiveRun((current) =>
              current ? { ...current, steps: [...current.steps, step as StepResult] } : current,
            ),
        });
        setLiveRun(null);
        setRun(result as FlowRun);
      } else setRun(await runFlow(flow.id, flow.env_id, runId));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  }

  return (
    <Modal
      open
      width={1000}
      title={t('workbench.flow.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="workbench-flow-dialog">
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            aria-label={t('workbench.flow.pick')}
            data-testid="workbench-flow-select"
            style={{ minWidth: 200 }}
            placeholder={t('workbench.flow.none')}
            value={flowId || undefined}
            options={flows.map((f) => ({ value: f.id, label: f.flow_name || `#${f.id}` }))}
            onChange={setFlowId}
          />
          <Space.Compact>
            <Input
              data-testid="workbench-flow-name"
              aria-label={t('workbench.flow.name')}
              placeholder={t('workbench.flow.name')}
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
              onPressEnter={create}
            />
            <Button data-testid="workbench-flow-create" onClick={create}>
              {t('workbench.flow.create')}
            </Button>
          </Space.Compact>
          {flow && (
            <Button
              danger
              icon={<DeleteOutlined />}
              aria-label={t('workbench.flow.delete')}
              onClick={async () => {
                await deleteFlow(flow.id);
                await reloadFlows();
              }}
            />
          )}
        </Space>
        {flow && (
          <>
            <Space wrap style={{ marginBottom: 12 }}>
              <span>{t('workbench.env.label')}</span>
              <Select
                aria-label={t('workbench.env.label')}
                data-testid="workbench-flow-env"
                style={{ minWidth: 160 }}
                value={flow.env_id || undefined}
                placeholder={t('workbench.env.none')}
                options={envs.map((e) => ({ value: e.id, label: e.env_name }))}
                onChange={(env_id: number) => update({ env_id })}
              />
              <span>{t('workbench.flow.times')}</span>
              <InputNumber
                aria-label={t('workbench.flow.times')}
                min={1}
                max={100}
                value={flow.times}
                onChange={(times) => times && update({ times })}
              />
              <span>{t('workbench.flow.interval')}</span>
              <InputNumber
                aria-label={t('workbench.flow.interval')}
                min={0}
                max={3600}
                value={flow.time_interval}
                onChange={(time_interval) => time_interval !== null && update({ time_interval })}
              />
              <Switch
                checked={Boolean(flow.error_continue)}
                onChange={(on) => update({ error_continue: on ? 1 : 0 })}
              />
              <span>{t('workbench.flow.continueOnError')}</span>
              <Switch
                data-testid="workbench-flow-save-change"
                checked={Boolean(flow.save_change)}
                onChange={(on) => update({ save_change: on ? 1 : 0 })}
              />
              <span>{t('workbench.flowMore.saveChange')}</span>
            </Space>
            <FlowSteps
              steps={steps}
              onReorder={reorder}
              onToggle={toggle}
              onRemove={async (step) => {
                await deleteFlowStep(step.id);
                await reloadSteps();
              }}
              onSaved={reloadSteps}
            />
            <Space.Compact style={{ marginTop: 8 }}>
              <Select
                aria-label={t('workbench.flow.addStep')}
                data-testid="workbench-flow-page"
                style={{ minWidth: 260 }}
                showSearch
                optionFilterProp="label"
                placeholder={t('workbench.flow.addStep')}
                value={pickPage}
                options={pages.map((p) => ({ value: p.page_id, label: p.title }))}
                onChange={setPickPage}
              />
              <Button
                data-testid="workbench-flow-add-step"
                onClick={async () => {
                  if (!pickPage) return;
                  await addFlowStep(flowId, pickPage);
                  setPickPage(undefined);
                  await reloadSteps();
                }}
              >
                {t('workbench.flow.add')}
              </Button>
            </Space.Compact>
            <div style={{ marginTop: 12 }}>
              <Button
                type="primary"
                loading={running}
                data-testid="workbench-flow-run"
                onClick={start}
              >
                {t('workbench.flow.run')}
              </Button>
              <Checkbox
                style={{ marginLeft: 12 }}
                data-testid="workbench-flow-from-browser"
                checked={fromBrowser}
                disabled={running}
                onChange={(e) => setFromBrowser(e.target.checked)}
              >
                {t('workbench.flowMore.fromBrowser')}
              </Checkbox>
            </div>
          </>
        )}
        {live && live.flow_id === flowId && (
          <div data-testid="workbench-flow-live" data-finished={live.finished ? 'true' : 'false'}>
            <Progress
              percent={Math.round((live.done / Math.max(live.total, 1)) * 100)}
              size="small"
            />
            {live.step && (
              <Typography.Text type="secondary">
                {t('workbench.flow.liveStep', {
                  title: live.step.page_title,
                  status: live.step.status,
                })}
              </Typography.Text>
            )}
          </div>
        )}
        {liveRun && liveRun.flowId === flowId && liveRun.runId !== run?.run_id && (
          <div style={{ marginTop: 8 }}>
            <Typography.Text strong>{t('workbench.flowMore.live')}</Typography.Text>
            <ResultTable steps={liveRun.steps} testId="workbench-flow-live-results" />
          </div>
        )}
        {problem && <Alert type="error" showIcon message={problem} style={{ marginTop: 12 }} />}
        {run && (
          <div
            style={{ marginTop: 12 }}
            data-testid="workbench-flow-run-result"
            data-passed={run.passed}
            data-failed={run.failed}
          >
            <Space style={{ marginBottom: 8 }}>
              <Tag color="green">{t('workbench.flow.passed', { count: run.passed })}</Tag>
              <Tag color={run.failed ? 'red' : undefined}>
                {t('workbench.flow.failed', { count: run.failed })}
              </Tag>
              {run.stopped && <Tag color="orange">{t('workbench.flow.stopped')}</Tag>}
            </Space>
            {run.saved_pages.length > 0 && (
              <Alert
                type="success"
                showIcon
                data-testid="workbench-flow-saved"
                style={{ marginBottom: 8 }}
                message={t('workbench.flowMore.saved', { count: run.saved_pages.length })}
              />
            )}
            <ResultTable steps={run.steps as StepResult[]} testId="workbench-flow-results" />
          </div>
        )}
      </div>
    </Modal>
  );
}

/**
 * The editor has no live connection of its own (its collaboration runs apart): the dialog opens
 * one while it is shown, so it follows runs on the item; elsewhere it uses the app's.
 */
export function FlowDialog(props: { itemId: number; onClose: () => void }) {
  const { socket } = useLive();
  return socket ? (
    <FlowDialogBody {...props} />
  ) : (
    <LiveProvider>
      <FlowDialogBody {...props} />
    </LiveProvider>
  );
}
