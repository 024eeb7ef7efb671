/**
 * Two Markdown texts side by side with their differences marked (`@codemirror/merge`), both
 * read-only, long lines wrapped.
 */
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { MergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

const READ_ONLY_MARKDOWN: Extension = [
  lineNumbers(),
  markdown(),
  syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
  EditorView.lineWrapping,
  EditorState.readOnly.of(true),
  EditorView.editable.of(false),
];

export function MergeDiff({ left, right }: { left: string; right: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new MergeView({
      a: { doc: left, extensions: READ_ONLY_MARKDOWN },
      b: { doc: right, extensions: READ_ONLY_MARKDOWN },
      parent: host.current!,
      gutter: true,
      highlightChanges: true,
    });
    return () => view.destroy();
  }, [left, right]);
  return (
    <div
      ref={host}
      data-testid="diff-merge"
      style={{ background: '#fff', border: '1px solid #eef0f3', borderRadius: 8, marginTop: 12 }}
    />
  );
}
