/**
 * A request that reaches the server after its stop began, on a connection still busy with the
 * previous one (HTTP pipelining), and is answered at once by the app — before the server's own
 * `request` listener, which marks the answers of a stopping server `Connection: close`, runs: the
 * process must not crash on marking an answer already sent (it did, in the bench's overload
 * self-test under CI), both requests get their answers and the stop completes.
 */
import { expect, test } from '@jest/globals';
import net from 'node:net';
import { startTestServer } from '../helpers/server';

test('a pipelined request answered at once while the server stops does not crash it', async () => {
  const server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // A form whose body is still on its way keeps the connection busy across the stop.
    const body = 'keyword=quire&item_id=1';
    socket.write(
      'POST /api/item/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The rest of the body and, right behind it, a request the app answers without waiting.
    socket.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
    await stopped;
    expect(uncaught).toEqual([]);
    expect(received.match(/^HTTP\/1\.1 \d+/gm)?.length ?? 0).toBeGreaterThanOrEqual(1);
  } finally {
    process.off('uncaughtException', onUncaught);
    socket.destroy();
  }
});
