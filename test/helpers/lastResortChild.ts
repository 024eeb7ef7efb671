/**
 * Child-process entry for test/api/lastResort.test.ts: a plain HTTP server with the real
 * last-resort handler (api/lastResort.ts) whose `/throw-in-stream` route makes an event emitter
 * fail with no listener while reading the body — what busboy did before its fix — and whose
 * `/throw-outside` route makes a timer that no request owns throw. Prints its port when listening.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { installLastResort, trackRequests } from '../../api/lastResort';
import { createLogger } from '../../models/platform/log';

// Work that no request owns: a timer started with the process (timers started by a request stay
// in that request's scope, and their errors are that request's).
let throwOutside = false;
setInterval(() => {
  if (throwOutside) throw new Error('no request owns this');
}, 20);

const server = http.createServer((req, res) => {
  if (req.url === '/throw-in-stream') {
    req.on('data', () => new EventEmitter().emit('error', new Error('nobody listens')));
    req.on('end', () => res.end('not reached'));
    return;
  }
  if (req.url === '/throw-outside') {
    throwOutside = true;
    res.end('scheduled');
    return;
  }
  res.end('ok');
});
trackRequests(server);
installLastResort({
  logger: createLogger({ level: 'info' }),
  onFatal: () => {
    process.stdout.write('fatal: stopping\n');
    process.exit(70);
  },
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`listening on ${(server.address() as AddressInfo).port}\n`),
);
