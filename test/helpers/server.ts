/**
 * A full Quire (HTTP + realtime + embedded engine + first admin) in the test process, on an
 * ephemeral port and a fresh temporary data directory — the same `startQuire` that `npm start`
 * runs. `stop()` closes everything and deletes the directory it made.
 *
 * The first Quire of a test file adopts the process's default context, so model functions called
 * from the test see its data; a second one runs on its own connection (reach it with
 * `server.quire.run(() => …)`; test/server/twoInstances.test.ts). Start it in
 * `beforeAll` and stop it in `afterAll`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createControllerRegistry } from '../../api/routes';
import type { ControllerDefinition } from '../../api/registry';
import { loadConfig, type CONFIG_KEYS } from '../../models/platform/config';
import { createLogger } from '../../models/platform/log';
import { startQuire, type RunningQuire } from '../../server/quire';
import { ShowdocClient } from './client';

export type ConfigKey = (typeof CONFIG_KEYS)[number];

export interface TestServerOptions {
  /** Settings on top of the test defaults (PORT=0, HOST=127.0.0.1, a temp DATA_DIR). */
  env?: Partial<Record<ConfigKey, string>>;
  /** Reuse a data directory (restart tests). It is then left in place by `stop()`. */
  dataDir?: string;
  /** Extra controllers served next to the real ones (to probe the transport). */
  controllers?: ControllerDefinition[];
  /** Serve this folder as the web app instead of dist/. */
  webDistDir?: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  dataDir: string;
  /** ShowDoc client without a token; `.withToken(t)` for a logged-in one. */
  api: ShowdocClient;
  /** Plain fetch against the server: `request('/healthz')`. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** What the server printed for the operator (URL, admin password). */
  printed: string[];
  /** The JSON log lines it wrote. */
  logs: Record<string, unknown>[];
  /** The raw log text (to check nothing secret was written). */
  logText(): string;
  quire: RunningQuire;
  stop(): Promise<void>;
}

export async function makeTempDir(prefix = 'quire-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await makeTempDir());
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...options.env,
  });

  const printed: string[] = [];
  let raw = '';
  const logSink = new Writable({
    write(chunk, _encoding, done) {
      raw += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ level: config.logLevel, destination: logSink });

  let quire: RunningQuire;
  try {
    quire = await startQuire(config, {
      logger,
      print: (text) => printed.push(text),
      registry: createControllerRegistry(options.controllers ?? []),
      webDistDir: options.webDistDir,
    });
  } catch (error) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const url = `http://127.0.0.1:${quire.port}`;
  return {
    url,
    port: quire.port,
    dataDir,
    api: new ShowdocClient(url),
    request: (pathname, init) => fetch(new URL(pathname, url), init),
    printed,
    get logs() {
      return raw
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => raw,
    quire,
    async stop() {
      await quire.stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
