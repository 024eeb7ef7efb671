/**
 * The network side: TCP on a loopback address and/or a unix socket. Messages on one connection
 * are answered in order (the driver never pipelines on a connection, except moreToCome).
 */
import net from 'node:net';
import fs from 'node:fs';
import type { Engine } from './engine';
import { decodeMessage, encodeOpMsg, encodeOpReply, MessageReader, OP_QUERY } from './wire';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function assertLoopback(host: string): void {
  if (!LOOPBACK.has(host) && !host.startsWith('127.')) {
    throw new Error(`the embedded engine listens on loopback only; refusing host '${host}'`);
  }
}

export class WireServer {
  private servers: net.Server[] = [];
  private sockets = new Set<net.Socket>();
  private nextConnectionId = 1;

  constructor(private readonly engine: Engine) {}

  /**
   * `network`: the caller chose a non-loopback address on purpose (`engine:serve`, the database
   * host of a scaled install); the engine has no authentication, so nothing else may.
   */
  listenTcp(host: string, port: number, network = false): Promise<number> {
    if (!network) assertLoopback(host);
    return this.listen((server) => server.listen(port, host)).then(
      (s) => (s.address() as net.AddressInfo).port,
    );
  }

  async listenUnix(socketPath: string): Promise<void> {
    // The data-directory lock proves no other engine owns this path: a leftover file is stale.
    fs.rmSync(socketPath, { force: true });
    await this.listen((server) => server.listen(socketPath));
    fs.chmodSync(socketPath, 0o600);
  }

  private listen(start: (server: net.Server) => void): Promise<net.Server> {
    const server = net.createServer((socket) => this.serve(socket));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        resolve(server);
      });
      start(server);
    });
  }

  private serve(socket: net.Socket): void {
    const connectionId = this.nextConnectionId++;
    const reader = new MessageReader();
    let chain = Promise.resolve();
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      let messages: Buffer[];
      try {
        messages = reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const message of messages) {
        chain = chain.then(() => this.answer(socket, message, connectionId));
      }
    });
  }

  private async answer(socket: net.Socket, message: Buffer, connectionId: number): Promise<void> {
    let incoming;
    try {
      incoming = decodeMessage(message);
    } catch {
      socket.destroy();
      return;
    }
    const { command } = incoming;
    if (incoming.opCode === OP_QUERY && command.$db === undefined) {
      command.$db = (incoming.legacyNamespace ?? 'admin.$cmd').split('.')[0];
    }
    const reply = await this.engine.run(command, connectionId);
    if (incoming.noReply || socket.destroyed) return;
    socket.write(
      incoming.opCode === OP_QUERY
        ? encodeOpReply(incoming.requestId, reply)
        : encodeOpMsg(incoming.requestId, reply),
    );
  }

  async close(): Promise<void> {
    const closing = this.servers.map(
      (s) => new Promise<void>((resolve) => s.close(() => resolve())),
    );
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(closing);
    this.servers = [];
  }
}
