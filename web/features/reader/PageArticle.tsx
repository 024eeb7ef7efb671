/**
 * One page as read: its title (with an attachment icon when it has files, and the full-screen
 * switch off mobile), live notes (who edits it, who else is here, a newer version), the rendered
 * content and the footer.
 */
import { CompressOutlined, ExpandOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TocEntry } from '../../markdown';
import { Markdown } from '../../markdown/Markdown';
import { ReaderFooter } from './ReaderFooter';
import './reader.css';

export const FULLSCREEN_FONT_PX = 16;

export function PageArticle({
  title,
  source,
  attachmentCount = 0,
  onAttachments,
  fullscreen,
  onToggleFullscreen,
  notes,
  extras,
  onToc,
}: {
  title: string;
  /** Raw Markdown (un-escaped, API documents already converted). */
  source: string;
  attachmentCount?: number;
  onAttachments?: () => void;
  fullscreen: boolean;
  /** Absent: no full-screen switch (mobile). */
  onToggleFullscreen?: () => void;
  notes?: ReactNode;
  /** After the content: feedback and comments when the item allows them. */
  extras?: ReactNode;
  onToc?: (toc: TocEntry[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <article data-testid="page-article" data-fullscreen={fullscreen ? 'yes' : 'no'}>
      <header style={{ display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 12 }}>
        <h2
          className="q-page-title"
          style={{ flex: 1, wordBreak: 'break-word' }}
          data-testid="page-title"
        >
          {title}
        </h2>
        {attachmentCount > 0 && onAttachments && (
          <Tooltip title={t('reader.attachments.title')}>
            <span className="q-count-anchor">
              <Button
                type="text"
                icon={<PaperClipOutlined />}
                aria-label={t('reader.attachments.title')}
                onClick={onAttachments}
                data-testid="attachments-icon"
              />
              <sup className="q-count" data-testid="attachments-count">
                {attachmentCount > 99 ? '99+' : attachmentCount}
              </sup>
            </span>
          </Tooltip>
        )}
        {onToggleFullscreen && (
          <Tooltip title={fullscreen ? t('reader.exitFullscreen') : t('reader.fullscreen')}>
            <Button
              type="text"
              icon={fullscreen ? <CompressOutlined /> : <ExpandOutlined />}
              aria-label={fullscreen ? t('reader.exitFullscreen') : t('reader.fullscreen')}
              aria-pressed={fullscreen}
              onClick={onToggleFullscreen}
              data-testid="fullscreen-toggle"
            />
          </Tooltip>
        )}
      </header>
      {notes}
      <Markdown
        source={source}
        onToc={onToc}
        style={fullscreen ? { fontSize: FULLSCREEN_FONT_PX } : undefined}
      />
      {extras}
      <ReaderFooter />
    </article>
  );
}
