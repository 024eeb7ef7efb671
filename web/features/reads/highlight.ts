/**
 * Marks the changed blocks of the rendered page: every element whose `data-md-line` (set by the
 * Markdown renderer) names a changed block's first source line gets `data-read-change` (added or
 * changed) and a label with who changed it and when. The marks are applied again whenever the
 * rendered content is replaced (late-loading highlighting re-renders it), until cleared.
 */
import type { PageChanges } from './api';

export function applyHighlight(
  root: HTMLElement,
  blocks: PageChanges['blocks'],
  label: string,
): void {
  clearHighlight(root);
  for (const block of blocks)
    for (const el of root.querySelectorAll<HTMLElement>(`[data-md-line="${block.line}"]`)) {
      el.setAttribute('data-read-change', block.kind);
      el.setAttribute('data-read-by', label);
    }
}

export function clearHighlight(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-read-change]')) {
    el.removeAttribute('data-read-change');
    el.removeAttribute('data-read-by');
  }
}

/** Keeps the marks on `root` while its content is re-rendered; returns the stop function. */
export function keepHighlighted(
  root: HTMLElement,
  blocks: PageChanges['blocks'],
  label: string,
): () => void {
  applyHighlight(root, blocks, label);
  const observer = new MutationObserver((records) => {
    if (records.some((r) => r.type === 'childList')) applyHighlight(root, blocks, label);
  });
  observer.observe(root, { childList: true });
  return () => {
    observer.disconnect();
    clearHighlight(root);
  };
}
