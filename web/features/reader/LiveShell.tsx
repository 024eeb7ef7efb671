/**
 * What a logged-in reader adds: the app's live connection and the unread badge state. Its own
 * chunk, so anonymous visitors never download the socket client.
 */
import type { ReactNode } from 'react';
import { LiveProvider } from '../../live/LiveProvider';
import { UnreadProvider } from '../notices/UnreadProvider';

export default function LiveShell({ children }: { children: ReactNode }) {
  return (
    <LiveProvider>
      <UnreadProvider>{children}</UnreadProvider>
    </LiveProvider>
  );
}
