/**
 * The page's mock response (spec 001 §5, reference pages §7): a JSON template in Mock.js syntax
 * and a path; saving gives the page public mock URLs (by key, and by path within the item). The
 * path is shown without the `~` that marks a regular expression: a checkbox says it instead.
 * Saving closes the dialog (spec 001 §5); reopening shows the URLs.
 */
import { Alert, App, Checkbox, Form, Input, Modal, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unescapeHtml } from '../../../markdown/unescape';
import type { EditorHandle, EditorPageContext } from '../contract';
import { mockUrls, pageMock, saveMock, templateFromPage } from './mockApi';

const REGEX_MARK = '~';
const DEFAULT_TEMPLATE = '{\n  "id|1-100": 1,\n  "name": "@name"\n}';

interface Draft {
  template: string;
  path: string;
  regex: boolean;
  uniqueKey: string;
}

function validJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function MockDialog({
  page,
  editor,
  onClose,
}: {
  page: EditorPageContext;
  editor: EditorHandle;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [jsonError, setJsonError] = useState(false);
  // Read once when the dialog opens: the parent re-renders with new callbacks meanwhile.
  const opened = useRef({ editor, onClose });

  useEffect(() => {
    const { editor: handle, onClose: giveUp } = opened.current;
    let current = true;
    pageMock(page.pageId).then(
      (mock) => {
        if (!current) return;
        const path = mock?.path ?? '/';
        const regex = path.startsWith(REGEX_MARK);
        setDraft({
          template: mock
            ? unescapeHtml(mock.template)
            : templateFromPage(handle.getText()) || DEFAULT_TEMPLATE,
          path: regex ? path.slice(REGEX_MARK.length) : path,
          regex,
          uniqueKey: mock?.unique_key ?? '',
        });
      },
      giveUp, // already alerted by the API client
    );
    return () => {
      current = false;
    };
  }, [page.pageId]);

  async function save() {
    if (!draft) return;
    if (!validJson(draft.template)) {
      setJsonError(true);
      return;
    }
    setSaving(true);
    try {
      const path = draft.regex ? REGEX_MARK + draft.path : draft.path;
      await saveMock(page.pageId, draft.template, path);
      message.success(t('editAssets.mock.saved'));
      onClose();
    } catch {
      setSaving(false); // the server's reason was alerted
    }
  }

  const update = (change: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...change } : d));
  const urls =
    draft?.uniqueKey &&
    mockUrls(
      window.location.origin,
      page.itemId,
      draft.uniqueKey,
      (draft.regex ? REGEX_MARK : '') + draft.path,
    );

  return (
    <Modal
      open
      title={t('editAssets.mock.title')}
      okText={t('editAssets.mock.save')}
      cancelText={t('common.cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      okButtonProps={{ loading: saving, disabled: !draft, 'data-testid': 'mock-save' }}
      width={640}
      destroyOnHidden
    >
      <div data-testid="mock-dialog">
        {!draft ? (
          <Spin />
        ) : (
          <Form layout="vertical">
            <Form.Item
              label={t('editAssets.mock.template')}
              extra={t('editAssets.mock.templateHelp')}
              validateStatus={jsonError ? 'error' : undefined}
              help={jsonError ? t('editAssets.mock.invalidJson') : undefined}
            >
              <Input.TextArea
                value={draft.template}
                onChange={(e) => {
                  setJsonError(false);
                  update({ template: e.target.value });
                }}
                autoSize={{ minRows: 8, maxRows: 16 }}
                spellCheck={false}
                style={{ fontFamily: 'monospace' }}
                data-testid="mock-template"
              />
            </Form.Item>
            <Form.Item label={t('editAssets.mock.path')} extra={t('editAssets.mock.pathHelp')}>
              <Input
                value={draft.path}
                onChange={(e) => update({ path: e.target.value })}
                data-testid="mock-path"
              />
              <Checkbox
                checked={draft.regex}
                onChange={(e) => update({ regex: e.target.checked })}
                style={{ marginTop: 6 }}
                data-testid="mock-regex"
              >
                {t('editAssets.mock.regex')}
              </Checkbox>
            </Form.Item>
            {urls ? (
              <>
                <Typography.Text strong>{t('editAssets.mock.urlByPath')}</Typography.Text>
                <Typography.Paragraph copyable={{ text: urls.byPath }} data-testid="mock-path-url">
                  {urls.byPath}
                </Typography.Paragraph>
                <Typography.Text strong>{t('editAssets.mock.urlByKey')}</Typography.Text>
                <Typography.Paragraph copyable={{ text: urls.byKey }} data-testid="mock-key-url">
                  {urls.byKey}
                </Typography.Paragraph>
              </>
            ) : (
              <Alert type="info" showIcon title={t('editAssets.mock.notYet')} />
            )}
          </Form>
        )}
      </div>
    </Modal>
  );
}
