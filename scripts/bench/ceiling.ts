/**
 * The ceiling: a bare Node `http` server that reads the request and answers a fixed ~3 KB JSON
 * body in ShowDoc's envelope. Driven with the same load as Quire, it shows what Node itself can
 * serve on this machine, so each Quire figure can be read as a fraction of it. Run as a child
 * process by `npm run bench`; tells its parent the port over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const BODY = Buffer.from(
  JSON.stringify({
    error_code: 0,
    data: { page_id: '1', page_title: 'Ceiling', page_content: 'x'.repeat(3 * 1024 - 60) },
  }),
);

const server = http.createServer((req, res) => {
  req.resume(); // read (and drop) the request body, as any real handler must
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': BODY.length,
    });
    res.end(BODY);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
});

function stop(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
