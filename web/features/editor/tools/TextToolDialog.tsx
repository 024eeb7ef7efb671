/**
 * The dialog every text tool opens (JSON to table, beautify JSON, paste-insert table, SQL to
 * Markdown table): a text area, then Insert turns its text into Markdown and puts that at the
 * editor's cursor. A conversion that fails keeps the dialog open with the text, so the author
 * can fix it; the tool itself tells why.
 */
import { Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface TextToolDialogProps {
  title: string;
  placeholder: string;
  /** Prefix of the test ids: `<testId>-dialog`, `<testId>-input`, `<testId>-ok`. */
  testId: string;
  /** The Markdown to insert for `text`; null when there is nothing to insert (already explained). */
  convert: (text: string) => Promise<string | null> | string | null;
  onInsert: (markdown: string) => void;
  onClose: () => void;
}

export function TextToolDialog({
  title,
  placeholder,
  testId,
  convert,
  onInsert,
  onClose,
}: TextToolDialogProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit() {
    setBusy(true);
    try {
      const markdown = await convert(text);
      if (markdown === null) return;
      onInsert(markdown);
      onClose();
    } catch {
      // the tool has alerted (API client or its own message)
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={title}
      width={680}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="insert"
          type="primary"
          data-testid={`${testId}-ok`}
          disabled={!text.trim()}
          loading={busy}
          onClick={submit}
        >
          {t('editTools.insert')}
        </Button>,
      ]}
      // A click beside the dialog must not throw away a pasted document.
      maskClosable={false}
      destroyOnHidden
    >
      <div data-testid={`${testId}-dialog`}>
        <Input.TextArea
          data-testid={`${testId}-input`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={placeholder}
          rows={12}
          autoFocus
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
        />
      </div>
    </Modal>
  );
}
