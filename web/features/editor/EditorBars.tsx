/**
 * The bars between the editor's header and its text: the tool row (formatting tools, the
 * preview switch) and the banners (watching a locked page, a live draft left unsaved); and the
 * small pieces of text the screen shows instead of or beside the editor.
 */
import { Alert, Button, Empty, Tooltip } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { EditorHandle, EditorPageContext } from './contract';
import { EditorToolbar } from './EditorToolbar';

export function EditorToolRow(props: {
  handle: EditorHandle | null;
  page: EditorPageContext;
  catId: number;
  previewOn: boolean;
  togglePreview(): void;
  /** Shown at the row's end, before the preview switch (the Suggesting switch). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { handle, previewOn } = props;
  return (
    <div
      data-testid="editor-toolbar"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        padding: '2px 12px',
        background: '#fff',
        borderBottom: '1px solid #eceef2',
        flexWrap: 'wrap',
      }}
    >
      {handle && <EditorToolbar editor={handle} page={props.page} catId={props.catId} />}
      <div style={{ flex: 1 }} />
      {props.extra}
      <Tooltip title={t(previewOn ? 'editor.hidePreview' : 'editor.showPreview')}>
        <Button
          type="text"
          icon={previewOn ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          onClick={props.togglePreview}
          aria-label={t(previewOn ? 'editor.hidePreview' : 'editor.showPreview')}
          data-testid="editor-preview-toggle"
        />
      </Tooltip>
    </div>
  );
}

export function EditorBanners(props: {
  /** The lock holder's name while watching a locked page, else null. */
  watching: string | null;
  liveDraft: boolean;
  hideLiveDraft(): void;
  discardLiveDraft(): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {props.watching !== null && (
        <Alert
          type="info"
          showIcon
          banner
          data-testid="editor-watching"
          message={t('editor.lock.watching', { name: props.watching })}
        />
      )}
      {props.liveDraft && (
        <Alert
          type="warning"
          showIcon
          banner
          closable
          onClose={props.hideLiveDraft}
          data-testid="editor-live-draft"
          message={t('editor.liveDraft.text')}
          action={
            <Button
              size="small"
              onClick={props.discardLiveDraft}
              data-testid="editor-live-draft-discard"
            >
              {t('editor.liveDraft.discard')}
            </Button>
          }
        />
      )}
    </>
  );
}

/** Shown instead of the editor when the server refused the page's live document. */
export function EditorRefused({ reason, onBack }: { reason: string; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <Empty
      style={{ marginTop: 120 }}
      description={t('editor.refused', { reason })}
      data-testid="editor-refused"
    >
      <Button onClick={onBack}>{t('editor.denied.back')}</Button>
    </Empty>
  );
}

/** A save refused for an unverified e-mail address: the reason and where to verify it. */
export function UnverifiedNotice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <span>
      {text || t('editor.unverified.text')}{' '}
      <Link to="/user/setting">{t('editor.unverified.link')}</Link>
    </span>
  );
}
