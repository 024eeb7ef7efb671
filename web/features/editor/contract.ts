/**
 * What the editor screen (EditorScreen.tsx) hands to its tools, dialogs and panels. The screen owns
 * the CodeMirror view (bound to the page's Yjs document when the page exists); tools only go
 * through this handle, so they work the same with and without co-editing.
 */
export interface EditorHandle {
  /** The whole Markdown text as it is now. */
  getText(): string;
  /** Replaces the whole text (history restore, "insert template" into an empty page …) as one undoable change. */
  setText(text: string): void;
  /** Inserts at the cursor, replacing the selection; the cursor ends after the inserted text. */
  insert(text: string): void;
  /** The selected text ('' when the selection is empty). */
  getSelection(): string;
  focus(): void;
  /** False while the editor is read-only (watching a locked page, archived item, no edit right). */
  isWritable(): boolean;
}

/** The page being edited, as tools need it. */
export interface EditorPageContext {
  /** The item's numeric id. */
  itemId: number;
  /** 0 while a new page has not been saved yet. */
  pageId: number;
  pageTitle: string;
  /** The item's manage right (attachments: upload/insert/delete need it, spec 001 §6). */
  canManage: boolean;
  /** The current interface locale (zh_cn shows the Chinese-only tools). */
  locale: string;
}

/** Props every toolbar tool component gets. */
export interface EditorToolProps {
  editor: EditorHandle;
  page: EditorPageContext;
}
