import { useEffect } from 'react';

/** Ctrl/Cmd+S anywhere on the screen saves (the browser's own "save page" is kept away). */
export function useSaveShortcut(save: () => unknown): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);
}
