/**
 * A TCP proxy in front of a MongoDB-wire server that loses one reply on purpose: the next command
 * with a given name reaches the server, its reply is swallowed and the client's connection cut —
 * the lost-reply failure drivers answer by retrying the write. Optionally something happens before
 * the cut (the engine restarted, say), and new connections can be sent to another port.
 */
import net from 'node:net';
import { BSON } from 'mongodb';

export interface ReplyDroppingProxy {
  port: number;
  /** Number of replies swallowed so far (each one cut a connection). */
  readonly dropped: number;
  /**
   * The next OP_MSG command with this name is forwarded, but its reply is swallowed and the
   * connection cut, once `beforeCut` (if any) has finished.
   */
  dropReplyTo(commandName: string, beforeCut?: () => Promise<void>): void;
  /** Connections made from now on go to this port. */
  retarget(port: number): void;
  close(): Promise<void>;
}

const OP_MSG = 2013;

/** Splits a byte stream into whole wire-protocol messages (each starts with its int32 length). */
function messageSplitter(onMessage: (msg: Buffer) => void) {
  let pending = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const len = pending.readInt32LE(0);
      onMessage(pending.subarray(0, len));
      pending = pending.subarray(len);
    }
  };
}

/** The command name of an OP_MSG: the first key of its body section (kind 0). */
function commandName(msg: Buffer): string | undefined {
  if (msg.readInt32LE(12) !== OP_MSG || msg[20] !== 0) return undefined;
  const bodyLength = msg.readInt32LE(21);
  return Object.keys(BSON.deserialize(msg.subarray(21, 21 + bodyLength)))[0];
}

export async function startReplyDroppingProxy(targetPort: number): Promise<ReplyDroppingProxy> {
  let armed: { name: string; beforeCut?: () => Promise<void> } | undefined;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(downstream).add(upstream);
    const swallow = new Map<number, (() => Promise<void>) | undefined>();
    let holding = false;
    const cut = () => {
      if (holding) return; // cut once `beforeCut` is done, whatever the server does meanwhile
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on(
      'data',
      messageSplitter((msg) => {
        if (armed && commandName(msg) === armed.name) {
          swallow.set(msg.readInt32LE(4), armed.beforeCut); // by requestID
          armed = undefined;
        }
        upstream.write(msg);
      }),
    );
    upstream.on(
      'data',
      messageSplitter((msg) => {
        const responseTo = msg.readInt32LE(8);
        if (!swallow.has(responseTo)) {
          downstream.write(msg);
          return;
        }
        dropped++;
        const beforeCut = swallow.get(responseTo);
        if (!beforeCut) return cut();
        holding = true;
        void beforeCut().finally(() => {
          holding = false;
          cut();
        });
      }),
    );
    for (const s of [downstream, upstream]) {
      s.on('error', cut);
      s.on('close', () => {
        sockets.delete(s);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get dropped() {
      return dropped;
    },
    dropReplyTo(name, beforeCut) {
      armed = { name, beforeCut };
    },
    retarget(port) {
      targetPort = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
