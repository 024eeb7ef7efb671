/**
 * Leaving the editor: with unsaved text the user confirms first (an open page's text stays in
 * its shared live draft; a new page's is kept as a local draft), otherwise at once.
 */
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';
import type { EditorHandle } from './contract';
import type { Phase } from './useLockGate';

export function useLeaveEditor(options: {
  pageId: number;
  handleRef: { current: EditorHandle | null };
  savedContent: string;
  phase: Phase;
  keepLocalDraft(): void;
  leaveNow(): Promise<void>;
}): () => void {
  const { t } = useTranslation();
  const { modal } = useAppFeedback();
  const { pageId, handleRef, savedContent, phase, keepLocalDraft, leaveNow } = options;
  return () => {
    const dirty = handleRef.current && handleRef.current.getText() !== savedContent;
    if (!dirty || phase !== 'editing') return void leaveNow();
    modal.confirm({
      title: t('editor.leave.title'),
      content: t(pageId ? 'editor.leave.sharedDraft' : 'editor.leave.localDraft'),
      okText: t('editor.leave.ok'),
      cancelText: t('editor.leave.stay'),
      onOk: () => {
        if (!pageId) keepLocalDraft();
        return leaveNow();
      },
    });
  };
}
