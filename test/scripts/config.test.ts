/**
 * Configuration: defaults, validation with a clear message, `.env.example` listing exactly the
 * keys Quire reads, and `npm start` exiting 1 on a bad value.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_KEYS, ConfigError, loadConfig } from '../../models/platform/config';
import { ROOT } from '../../server/paths';
import { killAllChildren, startScript } from '../helpers/processes';
import { makeTempDir } from '../helpers/server';

afterAll(killAllChildren);

describe('loadConfig', () => {
  test('an empty environment gives the documented defaults', () => {
    const config = loadConfig({}, '/srv/quire');
    expect(config).toEqual({
      port: 4999,
      host: '0.0.0.0',
      dataDir: '/srv/quire/data',
      mongodbUri: '',
      redisUrl: '',
      adminPassword: '',
      allowEphemeralData: false,
      bodyLimitBytes: 2 * 1024 * 1024,
      logLevel: 'info',
      appTimezone: 'Asia/Shanghai',
      trustProxy: false,
      role: 'all',
      lockGraceSeconds: 60,
      updateFeedUrl: '',
      allowPrivateHosts: [],
      pdfChromiumPath: '/usr/bin/chromium',
      mcpTokenRateLimit: 10_000,
      mcpUserRateLimit: 20_000,
      assistantLimits: { perUser: 60, perGuestAddress: 20, maxTokens: 1024, maxSteps: 6 },
      webhookRetrySchedule: [60, 300, 1800, 7200, 21600, 43200],
      webhookDisableAfter: 10,
      webhookTimeoutMs: 10_000,
      contractPollSeconds: 60,
      maxInflightPerWorker: 16,
      maxQueuePerWorker: 256,
      queueTimeoutMs: 2000,
      answerCacheBytes: 16 * 1024 * 1024,
      shutdownGraceMs: 10_000,
      workers: os.availableParallelism(),
      workerNodeFlags: [
        '--max-semi-space-size=8',
        '--heap-growing-percent=50',
        '--no-allocation-site-pretenuring',
        '--v8-pool-size=2',
      ],
      gcAfterStart: true,
    });
  });

  test('WEBHOOK_*: a comma list of retry delays in seconds, a failure limit, a timeout', () => {
    const config = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '0.5, 2,10',
      WEBHOOK_DISABLE_AFTER: '3',
      WEBHOOK_TIMEOUT_MS: '2500',
    });
    expect(config.webhookRetrySchedule).toEqual([0.5, 2, 10]);
    expect(config.webhookDisableAfter).toBe(3);
    expect(config.webhookTimeoutMs).toBe(2500);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m,5m' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '0' })).toThrow(/WEBHOOK_DISABLE_AFTER/);
  });

  test('CONTRACT_POLL_SECONDS: seconds between looks for due API contract checks', () => {
    expect(loadConfig({ CONTRACT_POLL_SECONDS: '0.5' }).contractPollSeconds).toBe(0.5);
    expect(() => loadConfig({ CONTRACT_POLL_SECONDS: '0' })).toThrow(/CONTRACT_POLL_SECONDS/);
    expect(() => loadConfig({ CONTRACT_POLL_SECONDS: 'hourly' })).toThrow(/CONTRACT_POLL_SECONDS/);
  });

  test('WORKER_NODE_FLAGS: Node flags or `none`; GC_AFTER_START: true or false', () => {
    expect(loadConfig({ WORKER_NODE_FLAGS: '--max-semi-space-size=16' }).workerNodeFlags).toEqual([
      '--max-semi-space-size=16',
    ]);
    expect(loadConfig({ WORKER_NODE_FLAGS: 'none' }).workerNodeFlags).toEqual([]);
    for (const bad of ['-x', '--a=1 rm', '--eval=1;2 x'])
      expect(() => loadConfig({ WORKER_NODE_FLAGS: bad })).toThrow(/WORKER_NODE_FLAGS must be/);
    expect(loadConfig({ GC_AFTER_START: 'false' }).gcAfterStart).toBe(false);
    expect(() => loadConfig({ GC_AFTER_START: 'yes' })).toThrow(/GC_AFTER_START/);
  });

  test('WORKERS: empty = one per core, 1 = a single process, out of range refused by name', () => {
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '8' }).workers).toBe(8);
    for (const bad of ['0', 'two', '65'])
      expect(() => loadConfig({ WORKERS: bad })).toThrow(/WORKERS must be an integer from 1 to 64/);
  });

  test('values are parsed: sizes, proxy settings, absolute data dir', () => {
    const config = loadConfig(
      {
        PORT: '0',
        BODY_LIMIT: '512kb',
        TRUST_PROXY: '2',
        DATA_DIR: '/var/lib/quire',
        MONGODB_URI: 'mongodb://db/x',
      },
      '/ignored',
    );
    expect(config).toMatchObject({
      port: 0,
      bodyLimitBytes: 512 * 1024,
      trustProxy: 2,
      dataDir: '/var/lib/quire',
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe(
      'loopback, 10.0.0.0/8',
    );
    expect(
      loadConfig({ ALLOW_PRIVATE_HOSTS: ' Intranet.example, 10.1.0.0/16,,127.0.0.1 ' })
        .allowPrivateHosts,
    ).toEqual(['intranet.example', '10.1.0.0/16', '127.0.0.1']);
    expect(() => loadConfig({ ALLOW_PRIVATE_HOSTS: '10.0.0.0/99' })).toThrow(
      /ALLOW_PRIVATE_HOSTS must be a comma list of host names, IP addresses or CIDR ranges/,
    );
  });

  test('HTTP_RELAY_ALLOW_HOSTS stays an alias of ALLOW_PRIVATE_HOSTS: both read, entries joined', () => {
    expect(loadConfig({ HTTP_RELAY_ALLOW_HOSTS: 'Intranet.example' }).allowPrivateHosts).toEqual([
      'intranet.example',
    ]);
    expect(
      loadConfig({
        ALLOW_PRIVATE_HOSTS: 'localhost, 10.0.0.0/8',
        HTTP_RELAY_ALLOW_HOSTS: '10.0.0.0/8,::1',
      }).allowPrivateHosts,
    ).toEqual(['localhost', '10.0.0.0/8', '::1']);
    expect(() => loadConfig({ HTTP_RELAY_ALLOW_HOSTS: 'bad host!' })).toThrow(
      /HTTP_RELAY_ALLOW_HOSTS must be a comma list of host names, IP addresses or CIDR ranges/,
    );
  });

  test('every bad value is named in one error, secrets are not echoed', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '99999',
        LOG_LEVEL: 'loud',
        MONGODB_URI: 'postgres://user:pw@x',
        APP_TIMEZONE: 'Mars/Olympus',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT must be an integer from 0 to 65535 \(got "99999"\)/);
    expect(message).toMatch(/LOG_LEVEL/);
    expect(message).toMatch(/APP_TIMEZONE/);
    expect(message).toMatch(/MONGODB_URI must start with mongodb:\/\//);
    expect(message).not.toContain('user:pw');
  });
});

test('.env.example lists exactly the settings Quire reads, each with its default', () => {
  const text = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const entries = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)];
  expect(entries.map((m) => m[1]).sort()).toEqual([...CONFIG_KEYS].sort());
  // The values shown are the defaults: loading them changes nothing.
  const fromExample = Object.fromEntries(entries.map((m) => [m[1], m[2]]));
  expect(loadConfig(fromExample, '/x')).toEqual(loadConfig({}, '/x'));
});

test('npm start with a bad PORT exits 1 with a message naming PORT', async () => {
  const cwd = await makeTempDir();
  try {
    const run = startScript('start', [], { cwd, env: { PORT: 'abc', DATA_DIR: cwd } });
    const result = await run.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Invalid configuration:[\s\S]*PORT must be an integer from 0 to 65535 \(got "abc"\)/,
    );
    expect(fs.readdirSync(cwd)).toEqual([]); // nothing was started or created
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});
