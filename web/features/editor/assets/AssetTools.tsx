/**
 * The editor toolbar's asset tools (spec 001 §2): attachments (with the page's file count),
 * "add from template", the page's notify list and — in Chinese only — Mock, HTTP test and, when
 * the site enables it, the AI assistant. The page must have been saved once before files or
 * subscribers can be bound to it.
 */
import {
  ApiOutlined,
  BookOutlined,
  NodeIndexOutlined,
  NotificationOutlined,
  PaperClipOutlined,
  RobotOutlined,
  SendOutlined,
  SnippetsOutlined,
} from '@ant-design/icons';
import { type MenuProps } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { homePageSetting } from '../../../api/common';
import { pageAttachments } from '../../reader/api';
import type { EditorToolProps } from '../contract';
import { templateBlock } from './markdown';
import { ToolButton } from '../ToolButton';
import { useAppFeedback } from '../../../components/AppFeedback';

// Each dialog loads when opened (issue #22): the editor's opening download carries none of them.
const MockDialog = lazy(() => import('./MockDialog').then((m) => ({ default: m.MockDialog })));
const NotifyDialog = lazy(() =>
  import('./NotifyDialog').then((m) => ({ default: m.NotifyDialog })),
);
const PageAttachmentsDialog = lazy(() =>
  import('./PageAttachmentsDialog').then((m) => ({ default: m.PageAttachmentsDialog })),
);
const TemplateListDialog = lazy(() =>
  import('./TemplateListDialog').then((m) => ({ default: m.TemplateListDialog })),
);

type AssetDialog =
  'attachments' | 'templates' | 'notify' | 'mock' | 'http' | 'flow' | 'library' | 'ai';

// The assistants load when first opened: the editor's first load does not carry them.
const HttpTestDialog = lazy(() =>
  import('./HttpTestDialog').then((module) => ({ default: module.HttpTestDialog })),
);
const FlowDialog = lazy(() =>
  import('../../workbench/FlowDialog').then((module) => ({ default: module.FlowDialog })),
);
const ParamLibraryDialog = lazy(() =>
  import('../../workbench/ParamLibraryDialog').then((module) => ({
    default: module.ParamLibraryDialog,
  })),
);
const AiDialog = lazy(() => import('./AiDialog').then((module) => ({ default: module.AiDialog })));

const CHINESE = 'zh_cn';

/** The number of files bound to the page (0 for a page not saved yet). */
function usePageFileCount(pageId: number) {
  const [count, setCount] = useState(0);
  const reload = useCallback(() => {
    if (!pageId) {
      setCount(0);
      return;
    }
    pageAttachments(pageId).then(
      (rows) => setCount(rows.length),
      () => {},
    );
  }, [pageId]);
  useEffect(reload, [reload]);
  return { count, setCount, reload };
}

/** The AI button's server switch (`is_show_ai`); only asked for where the button can show. */
function useAiEnabled(chinese: boolean): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    if (!chinese) return;
    let current = true;
    homePageSetting().then(
      (setting) => current && setEnabled(Boolean(Number(setting?.is_show_ai ?? 0))),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [chinese]);
  return chinese && enabled;
}

export function AssetTools({ editor, page }: EditorToolProps) {
  const { t } = useTranslation();
  const { message, modal } = useAppFeedback();
  const [dialog, setDialog] = useState<AssetDialog | null>(null);
  const files = usePageFileCount(page.pageId);
  const chinese = page.locale === CHINESE;
  const showAi = useAiEnabled(chinese);
  const saved = page.pageId > 0;
  const saveFirst = t('editAssets.saveFirst');

  function insertText(text: string) {
    if (!editor.isWritable()) {
      message.warning(t('editAssets.readOnly'));
      return;
    }
    editor.insert(text);
    editor.focus();
  }

  const templateMenu: MenuProps = {
    items: [
      {
        key: 'api',
        label: <span data-testid="template-api">{t('editAssets.templates.apiDoc')}</span>,
      },
      {
        key: 'db',
        label: <span data-testid="template-db">{t('editAssets.templates.dbDoc')}</span>,
      },
      { type: 'divider' },
      {
        key: 'more',
        label: <span data-testid="template-more">{t('editAssets.templates.more')}</span>,
      },
    ],
    onClick: ({ key }) => {
      if (key === 'api') insertText(templateBlock(t('editAssets.templates.apiDocText')));
      else if (key === 'db') insertText(templateBlock(t('editAssets.templates.dbDocText')));
      else setDialog('templates');
    },
  };

  function openMock() {
    // Spec 001 §5: a mock belongs to a saved page.
    if (!saved) {
      modal.warning({ content: t('editAssets.mock.saveFirst'), okText: t('common.ok') });
      return;
    }
    setDialog('mock');
  }

  const close = () => setDialog(null);

  return (
    <>
      <ToolButton
        testId="editor-tool-attachments"
        icon={<PaperClipOutlined />}
        tip={saved ? t('editAssets.attachments.title') : saveFirst}
        disabled={!saved}
        badge={files.count}
        onClick={() => setDialog('attachments')}
      />
      <ToolButton
        testId="editor-tool-templates"
        icon={<SnippetsOutlined />}
        tip={t('editAssets.templates.add')}
        menu={templateMenu}
      />
      <ToolButton
        testId="editor-tool-notify"
        icon={<NotificationOutlined />}
        tip={saved ? t('editAssets.notify.title') : saveFirst}
        disabled={!saved}
        onClick={() => setDialog('notify')}
      />
      {chinese && (
        <>
          <ToolButton
            testId="editor-tool-mock"
            icon={<ApiOutlined />}
            tip={t('editAssets.mock.title')}
            onClick={openMock}
          />
          <ToolButton
            testId="editor-tool-http"
            icon={<SendOutlined />}
            tip={t('assistants.http.title')}
            onClick={() => setDialog('http')}
          />
          <ToolButton
            testId="editor-tool-flow"
            icon={<NodeIndexOutlined />}
            tip={t('workbench.flow.title')}
            onClick={() => setDialog('flow')}
          />
          <ToolButton
            testId="editor-tool-library"
            icon={<BookOutlined />}
            tip={t('workbench.lib.title')}
            onClick={() => setDialog('library')}
          />
        </>
      )}
      {showAi && (
        <ToolButton
          testId="editor-tool-ai"
          icon={<RobotOutlined />}
          tip={t('assistants.ai.title')}
          onClick={() => setDialog('ai')}
        />
      )}

      <Suspense fallback={null}>
        {dialog === 'attachments' && (
          <PageAttachmentsDialog
            page={page}
            editor={editor}
            onCount={files.setCount}
            onClose={() => {
              close();
              // The hub may have bound (or deleted) files without the page's list being shown again.
              files.reload();
            }}
          />
        )}
        {dialog === 'templates' && (
          <TemplateListDialog itemId={page.itemId} editor={editor} onClose={close} />
        )}
        {dialog === 'notify' && <NotifyDialog page={page} onClose={close} />}
        {dialog === 'mock' && <MockDialog page={page} editor={editor} onClose={close} />}
        {dialog === 'http' && <HttpTestDialog page={page} editor={editor} onClose={close} />}
        {dialog === 'flow' && <FlowDialog itemId={page.itemId} onClose={close} />}
        {dialog === 'library' && <ParamLibraryDialog itemId={page.itemId} onClose={close} />}
        {dialog === 'ai' && <AiDialog editor={editor} onClose={close} />}
      </Suspense>
    </>
  );
}
