/**
 * Forced garbage collection in every process of the server under test, so a memory figure counts
 * what the server keeps, not what it has not collected yet. V8 collects an idle process's garbage
 * on its own schedule (seen here: 20–25 s after a burst of 10,000 connections, and a fresh
 * primary's start-up garbage just as late), so without this an RSS delta mixes live data with
 * garbage on both sides, by tens of MB.
 *
 * How: the bench starts the server with the inspector on a loopback port of the kernel's choice
 * (`INSPECT_ARG`); the cluster primary passes it on to each worker, on the next ports. Every
 * process announces its inspector address on stderr, which children.ts collects; here each is
 * asked for `HeapProfiler.collectGarbage` over the DevTools protocol, then the session closes.
 */
import WebSocket from 'ws';

export const INSPECT_ARG = '--inspect=127.0.0.1:0';

const LISTENING = /Debugger listening on (ws:\/\/\S+)/g;
const TIMEOUT_MS = 10_000;
/** Full collections per process: a second one frees what the first one's finalizers released. */
const ROUNDS = 2;

/** Inspector addresses announced in this stderr text. */
export function inspectorUrlsIn(text: string): string[] {
  return [...text.matchAll(LISTENING)].map((m) => m[1]);
}

/** Full collections in the process behind one inspector address; false if it did not answer. */
function collectOne(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let next = 1;
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), TIMEOUT_MS);
    const ask = () =>
      socket.send(JSON.stringify({ id: next, method: 'HeapProfiler.collectGarbage' }));
    socket.on('open', ask);
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as { id?: number; error?: unknown };
      if (reply.id !== next) return;
      if (reply.error) return finish(false);
      if (++next > ROUNDS) finish(true);
      else ask();
    });
    // A worker replaced since it announced itself: nothing to collect there.
    socket.on('error', () => finish(false));
  });
}

/** Collects garbage in every announced process, one after another; returns how many answered. */
export async function collectGarbage(urls: string[]): Promise<number> {
  let answered = 0;
  for (const url of new Set(urls)) if (await collectOne(url)) answered++;
  return answered;
}
