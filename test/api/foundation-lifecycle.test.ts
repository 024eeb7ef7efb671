/**
 * The process lifecycle: not-ready answers, the first-start admin (created once, never again),
 * and a clean stop that lets in-flight requests finish and releases the data directory.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { defineController } from '../../api/registry';
import { createAppState } from '../../api/state';
import { FIRST_ADMIN_USERNAME } from '../../models/accounts/bootstrap';
import { engineSocketPath } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { User } from '../../models/accounts/schemas/user';
import { findUserByName, verifyPassword } from '../../models/accounts/users';
import { makeTempDir, startTestServer } from '../helpers/server';
import { forgetCachedReads } from '../../models/platform';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await makeTempDir();
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('before the database is ready', () => {
  test('/healthz answers 503 and API calls get a 503 envelope (10503)', async () => {
    const app = createApp({
      config: { bodyLimitBytes: 1024, trustProxy: false },
      logger: createLogger({ level: 'silent' }),
      state: createAppState(),
      webDistDir: path.join(__dirname, 'no-such-dist'),
    });
    const health = await request(app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'starting' });
    const api = await request(app).post('/api/user/login');
    expect(api.status).toBe(503);
    expect(api.body).toMatchObject({ error_code: 10503 });
  });
});

describe('first-start admin', () => {
  test('a fresh database gets "showdoc" (groupid 1) with a random password printed once, never logged', async () => {
    const dataDir = await tempDir();
    const first = await startTestServer({ dataDir });
    const banner = first.printed.join('\n');
    const password = /Password: (\S+)/.exec(banner)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const admin = await findUserByName(FIRST_ADMIN_USERNAME);
    expect(admin?.groupid).toBe(1);
    expect(await verifyPassword(admin!, password!)).toBe(true);
    expect(first.logText()).not.toContain(password!);
    await first.stop();

    // Next start, even with ADMIN_PASSWORD now set: nothing printed, password unchanged.
    const second = await startTestServer({ dataDir, env: { ADMIN_PASSWORD: 'a-new-password' } });
    expect(second.printed.join('\n')).not.toMatch(/admin account|Password:/);
    const again = await findUserByName(FIRST_ADMIN_USERNAME);
    expect(await verifyPassword(again!, password!)).toBe(true);
    expect(await User.countDocuments({ username: FIRST_ADMIN_USERNAME })).toBe(1);

    // Deleted by its owners: a restart does not bring it back.
    await User.deleteOne({ username: FIRST_ADMIN_USERNAME });
    forgetCachedReads();
    await second.stop();
    const third = await startTestServer({ dataDir });
    expect(await findUserByName(FIRST_ADMIN_USERNAME)).toBeNull();
    expect(third.printed.join('\n')).not.toMatch(/admin account/);
    await third.stop();
  });

  test('ADMIN_PASSWORD, when set on the first start, is the admin password and is not echoed', async () => {
    const server = await startTestServer({ env: { ADMIN_PASSWORD: 'Chosen-Admin-Pass-1' } });
    const banner = server.printed.join('\n');
    expect(banner).toContain('ADMIN_PASSWORD');
    expect(banner).not.toContain('Chosen-Admin-Pass-1');
    const admin = await findUserByName(FIRST_ADMIN_USERNAME);
    expect(await verifyPassword(admin!, 'Chosen-Admin-Pass-1')).toBe(true);
    await server.stop();
  });
});

describe('stopping', () => {
  test('stop refuses new connections, lets the in-flight request finish, then releases the data directory', async () => {
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineController('quireSlow', {
      wait: async () => {
        entered();
        await gate;
        return { finished: true };
      },
    });

    const dataDir = await tempDir();
    const server = await startTestServer({ dataDir, controllers: [slow] });
    const inFlight = server.api.call('quireSlow/wait');
    await handlerEntered;

    let stopped = false;
    const stopping = server.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow(); // no longer accepting
    expect(stopped).toBe(false); // still waiting for the request in flight

    release();
    const answer = await inFlight;
    expect(answer.body).toEqual({ error_code: 0, data: { finished: true } });
    await stopping;
    expect(fs.existsSync(engineSocketPath(dataDir))).toBe(false);

    // The engine's lock on the directory is gone: the same directory opens again.
    const again = await startTestServer({ dataDir });
    expect((await again.request('/healthz')).status).toBe(200);
    await again.stop();
  });

  test('the test server leaves no files behind', async () => {
    const server = await startTestServer();
    expect(fs.existsSync(server.dataDir)).toBe(true);
    await server.stop();
    expect(fs.existsSync(server.dataDir)).toBe(false);
  });
});
