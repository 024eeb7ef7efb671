/**
 * A Socket.IO connection for the realtime bench's watching sockets: Socket.IO's protocol over a
 * plain `ws` WebSocket, packets read and written by `engine.io-parser` and `socket.io-parser` —
 * the parsers socket.io-client itself uses, without its manager, reconnection and emitter
 * layers. A load tool speaks the protocol like this: a thousand sockets in one client process
 * cost it a few microseconds per push instead of tens, and on a machine shared with the server
 * that difference would otherwise be charged to the server's latency. What reaches the server is
 * what the web app sends: the websocket transport, the `user_token` auth, acknowledged emits.
 */
import { decodePacket, encodePacket } from 'engine.io-parser';
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';
import WebSocket from 'ws';

type Listener = (payload: unknown) => void;

export interface LeanSocket {
  /** Calls `listener` with the first argument of each `event` the server emits. */
  on(event: string, listener: Listener): void;
  /** Emits with an acknowledgement; resolves with its first argument. */
  emitWithAck(event: string, payload: unknown, timeoutMs: number): Promise<unknown>;
  close(): void;
}

const encoder = new Encoder();

function send(ws: WebSocket, packet: Packet): void {
  for (const encoded of encoder.encode(packet))
    encodePacket({ type: 'message', data: encoded }, false, (data) => ws.send(data));
}

/** Connects to `url` (http[s]://host:port) with `token` as the handshake's `user_token`. */
export function connectLean(url: string, token: string, timeoutMs: number): Promise<LeanSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const listeners = new Map<string, Listener[]>();
  const acks = new Map<number, (value: unknown) => void>();
  let nextAck = 0;
  const decoder = new Decoder();

  const socket: LeanSocket = {
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    emitWithAck(event, payload, ackTimeoutMs) {
      const id = nextAck++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          acks.delete(id);
          reject(new Error(`no acknowledgement of "${event}" in ${ackTimeoutMs} ms`));
        }, ackTimeoutMs);
        acks.set(id, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
        send(ws, { type: PacketType.EVENT, nsp: '/', id, data: [event, payload] });
      });
    },
    close() {
      ws.close();
    },
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no Socket.IO connection in ${timeoutMs} ms`));
    }, timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(error);
    };
    decoder.on('decoded', (packet: Packet) => {
      switch (packet.type) {
        case PacketType.CONNECT:
          clearTimeout(timer);
          resolve(socket);
          break;
        case PacketType.CONNECT_ERROR:
          fail(new Error(String((packet.data as { message?: string })?.message ?? 'refused')));
          break;
        case PacketType.EVENT: {
          const [event, payload] = packet.data as [string, unknown];
          for (const listener of listeners.get(event) ?? []) listener(payload);
          break;
        }
        case PacketType.ACK:
          acks.get(packet.id!)?.((packet.data as unknown[])[0]);
          acks.delete(packet.id!);
          break;
      }
    });
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) return; // the bench's pushes are all text
      const packet = decodePacket(data.toString());
      if (packet.type === 'open')
        send(ws, { type: PacketType.CONNECT, nsp: '/', data: { user_token: token } });
      else if (packet.type === 'ping') encodePacket({ type: 'pong' }, false, (d) => ws.send(d));
      else if (packet.type === 'message') decoder.add(packet.data);
    });
    ws.on('error', fail);
  });
}
