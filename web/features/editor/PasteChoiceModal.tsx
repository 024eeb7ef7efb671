/** A long paste that carries HTML: insert it converted to Markdown, or as the plain text (spec 001 §5). */
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

export function PasteChoiceModal({
  open,
  onMarkdown,
  onText,
  onCancel,
}: {
  open: boolean;
  onMarkdown(): void;
  onText(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('editor.paste.title')}
      onCancel={onCancel}
      data-testid="paste-choice"
      footer={[
        <Button key="text" onClick={onText} data-testid="paste-as-text">
          {t('editor.paste.asText')}
        </Button>,
        <Button key="md" type="primary" onClick={onMarkdown} data-testid="paste-as-markdown">
          {t('editor.paste.asMarkdown')}
        </Button>,
      ]}
    >
      {t('editor.paste.question')}
    </Modal>
  );
}
