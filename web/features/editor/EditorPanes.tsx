/** The editor's two panes: the Markdown text (CodeMirror) and, when shown, its live preview. */
import { Spin } from 'antd';
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { CodeEditor } from './CodeEditor';

// The preview (the Markdown renderer) loads when shown: a page past the preview limit opens
// without it.
const PreviewPane = lazy(() => import('./PreviewPane').then((m) => ({ default: m.PreviewPane })));

export function EditorPanes({
  loading,
  showPreview,
  previewText,
  side,
  ...editor
}: ComponentProps<typeof CodeEditor> & {
  /** A column beside the panes (the suggestions). */
  side?: ReactNode;
  /** The shared document is still connecting. */
  loading: boolean;
  showPreview: boolean;
  previewText: string;
}) {
  return (
    <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
      <div style={{ flex: 1, minWidth: 0, background: '#fff' }}>
        {loading ? (
          <Spin style={{ display: 'block', marginTop: 80 }} />
        ) : (
          <CodeEditor {...editor} />
        )}
      </div>
      {/* Shown once the editor holds the text: a page past the preview limit has turned the
          preview off by then, and its renderer is never downloaded. */}
      {showPreview && (
        <div style={{ flex: 1, minWidth: 0, background: '#fff' }}>
          <Suspense fallback={null}>
            <PreviewPane source={previewText} />
          </Suspense>
        </div>
      )}
      {side}
    </div>
  );
}
