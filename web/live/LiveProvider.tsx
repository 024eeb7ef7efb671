/**
 * Holds the one live connection of the logged-in user and tells the app its state. The socket is
 * opened when a token is stored and replaced when the token changes (login as someone else);
 * logout closes it. A refusal (the token is no longer valid) is checked with `user/info`, whose
 * 10102 answer sends the user to the login screen through the API client's rule.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { userInfo } from '../api/user';
import { useLogin } from '../auth/useLogin';
import { LiveContext } from './context';
import {
  closeLiveSocket,
  NOT_LOGGED_IN,
  openLiveSocket,
  refusalCode,
  type ConnectionState,
  type LiveSocket,
} from './socket';

export function LiveProvider({ children }: { children: ReactNode }) {
  const token = useLogin()?.user_token ?? '';
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  const [state, setState] = useState<ConnectionState>('connecting');

  useEffect(() => {
    if (!token) return;
    const live = openLiveSocket(token);
    setSocket(live);
    setState('connecting');
    const onConnect = () => setState('connected');
    const onDisconnect = () => setState((s) => (s === 'refused' ? s : 'reconnecting'));
    const onError = (error: Error) => {
      if (refusalCode(error) === NOT_LOGGED_IN) {
        setState('refused');
        closeLiveSocket(live); // no retries with a dead token
        userInfo({ alert: false }).catch(() => {}); // 10102 → login screen (API client rule)
      } else setState('reconnecting');
    };
    live.on('connect', onConnect);
    live.on('disconnect', onDisconnect);
    live.on('connect_error', onError);
    return () => {
      live.off('connect', onConnect);
      live.off('disconnect', onDisconnect);
      live.off('connect_error', onError);
      closeLiveSocket(live);
      setSocket(null);
    };
  }, [token]);

  return (
    <LiveContext.Provider
      value={{ socket: token ? socket : null, state: token ? state : 'refused' }}
    >
      {children}
    </LiveContext.Provider>
  );
}
