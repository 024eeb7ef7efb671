/**
 * A page's open suggestions, kept current: loaded once, and again whenever the server pushes
 * `page:suggestions` for the page (anyone proposed, accepted or rejected). `watch`: join the page's
 * room here (the editor, which has no reader around it); the reader has joined it already.
 */
import { useCallback, useEffect, useState } from 'react';
import { useLive } from '../../live/context';
import { useLiveEvent } from '../../live/useLiveEvent';
import { listSuggestions, type SuggestionList } from './api';

export function useSuggestions(pageId: number, watch: boolean) {
  const [list, setList] = useState<SuggestionList | null>(null);
  const { socket } = useLive();

  /** Loads the list again; resolves with it (null when it could not be read). */
  const reload = useCallback(async (): Promise<SuggestionList | null> => {
    if (!(pageId > 0)) return null;
    try {
      const fresh = await listSuggestions(pageId);
      setList(fresh);
      return fresh;
    } catch {
      return null;
    }
  }, [pageId]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useLiveEvent('page:suggestions', (payload) => {
    if (payload.page_id === pageId) void reload();
  });

  useEffect(() => {
    if (!watch || !socket || !(pageId > 0)) return;
    const join = () => socket.emit('watch', { page_id: pageId }, () => {});
    if (socket.connected) join();
    // Missed pushes while the socket was down: load again.
    const again = () => void reload();
    socket.on('connect', join);
    socket.on('connect', again);
    return () => {
      socket.off('connect', join);
      socket.off('connect', again);
      if (socket.connected) socket.emit('unwatch', { page_id: pageId }, () => {});
    };
  }, [watch, socket, pageId, reload]);

  return { list, reload };
}
