/**
 * The Markdown editor: CodeMirror 6 with Markdown highlighting, line wrapping, search and the
 * usual keys; bound to the page's Y.Text with y-codemirror.next when there is one (remote cursors
 * and selections come from the awareness states), or holding the text itself for a page that has
 * not been saved yet. Tools reach it only through the EditorHandle it hands up.
 */
import type { CompletionSource } from '@codemirror/autocomplete';
import { markdown } from '@codemirror/lang-markdown';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, placeholder as placeholderText } from '@codemirror/view';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { yCollab } from 'y-codemirror.next';
import * as Y from 'yjs';
import type { EditorHandle } from './contract';

type Awareness = NonNullable<HocuspocusProvider['awareness']>;

export interface CodeEditorProps {
  /** The shared text (the view starts from its content), or null: a local document. */
  shared: { text: Y.Text; awareness: Awareness } | null;
  /** The starting text of a local document (ignored with `shared`). */
  initial: string;
  readOnly: boolean;
  placeholder?: string;
  onReady(handle: EditorHandle): void;
  onChange(text: string): void;
  /** A paste the editor should handle itself: return true to stop CodeMirror's own. */
  onPaste(event: ClipboardEvent, handle: EditorHandle): boolean;
  /** Completions offered while typing (the parameter library's, web/features/workbench/). */
  completion?: CompletionSource;
  /** More behaviour for the view's lifetime (suggest mode); read when the view is made. */
  extensions?: Extension;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px', backgroundColor: '#fff' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    lineHeight: '1.6',
  },
  '.cm-content': { padding: '12px 0' },
  '&.cm-focused': { outline: 'none' },
});

function editable(readOnly: boolean) {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}

export function handleOf(view: EditorView, writable: () => boolean): EditorHandle {
  return {
    getText: () => view.state.doc.toString(),
    setText: (text) =>
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: { anchor: Math.min(text.length, view.state.selection.main.head) },
        userEvent: 'input.replace',
      }),
    insert: (text) => {
      view.dispatch(view.state.replaceSelection(text), {
        userEvent: 'input',
        scrollIntoView: true,
      });
      view.focus();
    },
    getSelection: () => {
      const { from, to } = view.state.selection.main;
      return view.state.sliceDoc(from, to);
    },
    focus: () => view.focus(),
    isWritable: writable,
  };
}

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const editableSlot = useRef(new Compartment());
  const latest = useRef(props);
  latest.current = props;
  const readOnlyRef = useRef(props.readOnly);

  // The view lives as long as its document: a new shared text means a new view.
  useEffect(() => {
    const { shared, initial } = latest.current;
    const slot = editableSlot.current;
    const writable = () => !readOnlyRef.current;
    let handle: EditorHandle | null = null;
    const extensions = [
      basicSetup,
      markdown(),
      EditorView.lineWrapping,
      theme,
      placeholderText(latest.current.placeholder ?? ''),
      slot.of(editable(readOnlyRef.current)),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) latest.current.onChange(update.state.doc.toString());
      }),
      EditorView.domEventHandlers({
        paste: (event) => (handle ? latest.current.onPaste(event, handle) : false),
      }),
    ];
    if (latest.current.extensions) extensions.push(latest.current.extensions);
    const completion = latest.current.completion;
    // basicSetup's autocompletion asks the language data at the cursor for its sources.
    if (completion)
      extensions.push(EditorState.languageData.of(() => [{ autocomplete: completion }]));
    if (shared)
      extensions.push(
        yCollab(shared.text, shared.awareness, { undoManager: new Y.UndoManager(shared.text) }),
      );
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: shared ? shared.text.toString() : initial,
        extensions,
      }),
    });
    viewRef.current = view;
    handle = handleOf(view, writable);
    latest.current.onReady(handle);
    latest.current.onChange(view.state.doc.toString());
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [props.shared]);

  useEffect(() => {
    readOnlyRef.current = props.readOnly;
    viewRef.current?.dispatch({
      effects: editableSlot.current.reconfigure(editable(props.readOnly)),
    });
  }, [props.readOnly]);

  return <div ref={host} data-testid="editor-cm" style={{ height: '100%', overflow: 'hidden' }} />;
}
