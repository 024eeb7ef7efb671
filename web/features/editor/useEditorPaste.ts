/**
 * Paste in the editor: rich HTML asks whether to keep the text or convert it to Markdown (the
 * caller's dialog), a pasted image is uploaded to the page and inserted as Markdown, anything
 * else pastes as the browser would.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';
import { uploadPastedImage } from './assets/imageUpload';
import type { EditorHandle, EditorPageContext } from './contract';
import { classifyPaste } from './paste';

export function useEditorPaste(
  pageContext: EditorPageContext,
  askHtml: (paste: { html: string; text: string }) => void,
) {
  const { t } = useTranslation();
  const { modal, message } = useAppFeedback();
  const { itemId, pageId } = pageContext;
  return useCallback(
    (event: ClipboardEvent, editor: EditorHandle) => {
      if (!editor.isWritable()) return false;
      const kind = classifyPaste(event.clipboardData);
      if (kind.kind === 'default') return false;
      event.preventDefault();
      if (kind.kind === 'html') {
        askHtml({ html: kind.html, text: kind.text });
        return true;
      }
      const hide = message.loading(t('editor.paste.uploading'), 0);
      uploadPastedImage(kind.file, pageContext).then(
        (url) => {
          hide();
          editor.insert(`![${kind.file.name || 'image'}](${url})`);
        },
        (error: unknown) => {
          hide();
          const text = error instanceof Error && error.message ? error.message : '';
          modal.error({ title: text || t('editor.paste.uploadFailed') });
        },
      );
      return true;
    },
    // pageContext is rebuilt every render; the ids in it are what matter.
    [itemId, pageId, message, modal, t, askHtml],
  );
}
