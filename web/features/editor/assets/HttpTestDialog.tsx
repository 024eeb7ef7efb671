/**
 * The HTTP test tool (spec 001 §2, Chinese interface): the request the page documents (method,
 * URL, query, headers, body — httpTestRequest.ts reads RunApi pages and the Markdown API
 * template), editable, sent with the item's global parameters; the answer's status, timing,
 * headers and formatted body. Sent from the browser when the target's CORS allows it, else
 * through the server relay, which refuses private addresses (its refusal is shown as such).
 * `{{name}}` is filled from the chosen environment's variables (web/features/workbench/).
 * Loaded on demand (AssetTools' lazy import).
 */
import { Alert, Button, Input, Modal, Radio, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandle, EditorPageContext } from '../contract';
import {
  AssistantError,
  type HttpTestAnswer,
  itemGlobalParams,
  sendHttpTest,
} from './assistantsApi';
import {
  type BodyMode,
  formatBody,
  type GlobalParams,
  globalCount,
  type HttpTestRequest,
  METHODS,
  requestFromPage,
  toSendable,
} from './httpTestRequest';
import { KeyValueRows } from './KeyValueRows';
import { EnvironmentBar, type WorkbenchState } from '../../workbench/EnvironmentBar';
import { fillGlobals, fillRequest } from '../../workbench/variables';

const RELAY_REFUSED = 10403;

function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  if (status >= 300) return 'blue';
  return 'green';
}

function AnswerView({ answer }: { answer: HttpTestAnswer }) {
  const { t } = useTranslation();
  const body = useMemo(() => formatBody(answer.body), [answer.body]);
  return (
    <div data-testid="http-test-answer" data-status={answer.status} data-via={answer.via}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('assistants.http.status')}</Typography.Text>
        <Tag color={statusColor(answer.status)} data-testid="http-test-status">
          {answer.status} {answer.statusText}
        </Tag>
        <Typography.Text data-testid="http-test-time">
          {t('assistants.http.time', { ms: answer.durationMs })}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('assistants.http.size', { size: answer.size })}
        </Typography.Text>
        <Tag data-testid="http-test-via">
          {answer.via === 'browser'
            ? t('assistants.http.viaBrowser')
            : t('assistants.http.viaRelay')}
        </Tag>
      </Space>
      {answer.truncated && (
        <Alert
          type="warning"
          showIcon
          message={t('assistants.http.truncated', { size: answer.body.length })}
        />
      )}
      <Tabs
        size="small"
        items={[
          {
            key: 'body',
            label: t('assistants.http.responseBody'),
            children: answer.binary ? (
              <Typography.Text type="secondary">
                {t('assistants.http.binary', { size: answer.size })}
              </Typography.Text>
            ) : (
              <pre
                data-testid="http-test-body"
                data-json={body.json ? 'true' : 'false'}
                style={{ maxHeight: 320, overflow: 'auto', margin: 0 }}
              >
                {body.text || t('assistants.http.empty')}
              </pre>
            ),
          },
          {
            key: 'headers',
            label: t('assistants.http.responseHeaders'),
            children: (
              <pre
                data-testid="http-test-headers"
                style={{ maxHeight: 320, overflow: 'auto', margin: 0 }}
              >
                {answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n')}
              </pre>
            ),
          },
        ]}
      />
    </div>
  );
}

export function HttpTestDialog({
  page,
  editor,
  onClose,
}: {
  page: EditorPageContext;
  editor: EditorHandle;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The page as it is when the dialog opens; edits in the dialog do not touch the page.
  const [request, setRequest] = useState<HttpTestRequest>(() => requestFromPage(editor.getText()));
  const [global, setGlobal] = useState<GlobalParams | null>(null);
  const [answer, setAnswer] = useState<HttpTestAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // The chosen environment's variables fill `{{name}}`; the workbench's global parameters win
  // over item/info's when the item has any.
  const [bench, setBench] = useState<WorkbenchState>({ envId: 0, variables: {}, globals: null });
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    let current = true;
    itemGlobalParams(page.itemId).then(
      (params) => current && setGlobal(params),
      () => {},
    );
    return () => {
      current = false;
      abort.current?.abort();
    };
  }, [page.itemId]);

  const change = (patch: Partial<HttpTestRequest>) => setRequest((r) => ({ ...r, ...patch }));
  const withBody = request.method !== 'GET' && request.method !== 'HEAD';
  const activeGlobal = bench.globals && globalCount(bench.globals) > 0 ? bench.globals : global;
  const globals = globalCount(activeGlobal);

  async function send() {
    let sendable;
    try {
      sendable = toSendable(
        fillRequest(request, bench.variables),
        fillGlobals(activeGlobal, bench.variables),
      );
    } catch {
      setProblem(t('assistants.http.badUrl'));
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setSending(true);
    setProblem(null);
    setAnswer(null);
    try {
      setAnswer(await sendHttpTest(sendable, controller.signal));
    } catch (error) {
      if (controller.signal.aborted) return;
      const text = error instanceof Error ? error.message : String(error);
      setProblem(
        error instanceof AssistantError && error.code === RELAY_REFUSED
          ? t('assistants.http.refused', { message: text })
          : t('assistants.http.failed', { message: text }),
      );
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal
      open
      width={960}
      title={t('assistants.http.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="http-test-dialog">
        <EnvironmentBar itemId={page.itemId} onChange={setBench} />
        <Space.Compact block style={{ marginBottom: 12 }}>
          <Select
            aria-label={t('assistants.http.method')}
            data-testid="http-test-method"
            style={{ width: 120 }}
            value={request.method}
            options={METHODS.map((m) => ({ value: m, label: m }))}
            onChange={(method) => change({ method })}
          />
          <Input
            aria-label={t('assistants.http.url')}
            data-testid="http-test-url"
            placeholder={t('assistants.http.urlPlaceholder')}
            value={request.url}
            onChange={(event) => change({ url: event.target.value })}
            onPressEnter={send}
          />
          <Button type="primary" loading={sending} onClick={send} data-testid="http-test-send">
            {t('assistants.http.send')}
          </Button>
        </Space.Compact>
        {globals > 0 && (
          <Typography.Paragraph type="secondary" data-testid="http-test-globals">
            {t('assistants.http.globals', { count: globals })}
          </Typography.Paragraph>
        )}
        <Tabs
          size="small"
          items={[
            {
              key: 'query',
              label: t('assistants.http.query'),
              children: (
                <KeyValueRows
                  testId="http-test-query"
                  rows={request.query}
                  onChange={(query) => change({ query })}
                />
              ),
            },
            {
              key: 'headers',
              label: t('assistants.http.headers'),
              children: (
                <KeyValueRows
                  testId="http-test-headers-in"
                  rows={request.headers}
                  onChange={(headers) => change({ headers })}
                />
              ),
            },
            {
              key: 'body',
              label: t('assistants.http.body'),
              children: withBody ? (
                <>
                  <Radio.Group
                    style={{ marginBottom: 8 }}
                    value={request.bodyMode}
                    onChange={(event) => change({ bodyMode: event.target.value as BodyMode })}
                    options={[
                      { value: 'form', label: t('assistants.http.bodyForm') },
                      { value: 'json', label: t('assistants.http.bodyJson') },
                      { value: 'text', label: t('assistants.http.bodyText') },
                    ]}
                  />
                  {request.bodyMode === 'form' ? (
                    <KeyValueRows
                      testId="http-test-form"
                      rows={request.bodyFields}
                      onChange={(bodyFields) => change({ bodyFields })}
                    />
                  ) : (
                    <Input.TextArea
                      data-testid="http-test-body-text"
                      aria-label={t('assistants.http.bodyPlaceholder')}
                      placeholder={t('assistants.http.bodyPlaceholder')}
                      rows={6}
                      value={request.bodyText}
                      onChange={(event) => change({ bodyText: event.target.value })}
                    />
                  )}
                </>
              ) : (
                <Typography.Text type="secondary">{t('assistants.http.noBody')}</Typography.Text>
              ),
            },
          ]}
        />
        <Typography.Title level={5} style={{ marginTop: 12 }}>
          {t('assistants.http.response')}
        </Typography.Title>
        {problem && (
          <Alert type="error" showIcon message={problem} data-testid="http-test-problem" />
        )}
        {answer && <AnswerView answer={answer} />}
        {!answer && !problem && (
          <Typography.Text type="secondary">{t('assistants.http.waiting')}</Typography.Text>
        )}
      </div>
    </Modal>
  );
}
