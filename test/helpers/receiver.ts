/**
 * A real local HTTP receiver for outgoing requests (webhooks, chat pushes): it reads each
 * request's whole body, records it, and lets the test answer — at once, later, or never
 * (held answers are ended on close).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body as text. */
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`: add the path. */
  base: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1. `answer` gets each request once its body has arrived and the
 * response to end (or keep, to hold the sender's socket open).
 */
export async function startReceiver(
  answer: (request: ReceivedRequest, res: http.ServerResponse) => void,
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      open.add(res);
      res.on('close', () => open.delete(res));
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      for (const res of open) if (!res.writableEnded) res.end('ok');
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
