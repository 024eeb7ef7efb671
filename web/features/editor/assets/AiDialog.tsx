/**
 * The AI assistant dialog (spec 001 §2 "AI (input area and output area)"): the request on the
 * left, the answer streaming in on the right (`ai/create`), then "insert into the editor" puts
 * it at the cursor. Loaded on demand (AssetTools' lazy import), so the editor's first load does
 * not carry it.
 */
import { App, Button, Col, Input, Modal, Row, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandle } from '../contract';
import { AssistantError, streamAiAnswer } from './assistantsApi';

const AREA_ROWS = 16;

export function AiDialog({ editor, onClose }: { editor: EditorHandle; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);

  // Closing the dialog stops an answer still streaming.
  useEffect(() => () => abort.current?.abort(), []);

  async function generate() {
    const controller = new AbortController();
    abort.current = controller;
    setOutput('');
    setRunning(true);
    try {
      await streamAiAnswer(input, setOutput, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted)
        modal.error({
          content: t('assistants.ai.failed', {
            message: error instanceof AssistantError ? error.message : String(error),
          }),
          okText: t('common.ok'),
        });
    } finally {
      if (abort.current === controller) abort.current = null;
      setRunning(false);
    }
  }

  function insert() {
    if (!editor.isWritable()) {
      message.warning(t('assistants.ai.readOnly'));
      return;
    }
    editor.insert(output);
    editor.focus();
    onClose();
  }

  async function copy() {
    await navigator.clipboard.writeText(output);
    message.success(t('assistants.ai.copied'));
  }

  return (
    <Modal
      open
      width={1000}
      title={t('assistants.ai.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="copy" onClick={copy} disabled={!output.trim()} data-testid="ai-copy">
          {t('assistants.ai.copy')}
        </Button>,
        <Button
          key="insert"
          type="primary"
          onClick={insert}
          disabled={!output.trim() || running}
          data-testid="ai-insert"
        >
          {t('assistants.ai.insert')}
        </Button>,
      ]}
    >
      <div data-testid="ai-dialog" data-running={running ? 'true' : 'false'}>
        <Row gutter={24}>
          <Col span={12}>
            <Typography.Title level={5}>{t('assistants.ai.input')}</Typography.Title>
            <Input.TextArea
              data-testid="ai-input"
              aria-label={t('assistants.ai.input')}
              rows={AREA_ROWS}
              value={input}
              placeholder={t('assistants.ai.inputPlaceholder')}
              onChange={(event) => setInput(event.target.value)}
            />
            <div style={{ marginTop: 12, display: 'flex', gap: 8, alignItems: 'center' }}>
              {running ? (
                <Button onClick={() => abort.current?.abort()} data-testid="ai-stop">
                  {t('assistants.ai.stop')}
                </Button>
              ) : (
                <Button
                  type="primary"
                  onClick={generate}
                  disabled={!input.trim()}
                  data-testid="ai-generate"
                >
                  {t('assistants.ai.generate')}
                </Button>
              )}
              <Typography.Text type="secondary">{t('assistants.ai.hint')}</Typography.Text>
            </div>
          </Col>
          <Col span={12}>
            <Typography.Title level={5}>{t('assistants.ai.output')}</Typography.Title>
            <Input.TextArea
              data-testid="ai-output"
              aria-label={t('assistants.ai.output')}
              rows={AREA_ROWS}
              value={output}
              readOnly
              placeholder={t('assistants.ai.outputPlaceholder')}
            />
          </Col>
        </Row>
      </div>
    </Modal>
  );
}
