/**
 * `npm start` as an operator runs it (WORKERS=2): prints the admin password once and the URL when
 * ready, serves health, API and web app on one port, and stops cleanly on SIGTERM and SIGINT
 * (the engine's socket, the lead worker's, removed).
 */
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import { engineSocketPath } from '../../models/platform/db';
import { killAllChildren, startScript } from '../helpers/processes';
import { makeTempDir } from '../helpers/server';

const dirs: string[] = [];
afterAll(async () => {
  await killAllChildren();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const READY = /Quire is ready at (http:\/\/\S+)/;

test('start → ready with one password banner → serves → SIGTERM stops cleanly; restart → no banner → SIGINT', async () => {
  const cwd = await makeTempDir('quire-start-');
  dirs.push(cwd);
  // Two workers, as on a 2-core machine by default: npm start's process is their primary.
  const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: `${cwd}/data`, WORKERS: '2' };

  const first = startScript('start', [], { cwd, env });
  const url = READY.exec(await first.waitForOutput(READY))![1];
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(first.stdout()).toContain('(2 workers)');
  expect(first.stdout().match(/Password: \S+/g)).toHaveLength(1);

  const health = await fetch(`${url}healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({
    status: 'ok',
    database: { mode: 'embedded', state: 'up' },
  });
  const app = await fetch(url);
  expect(app.status).toBe(200);
  expect(app.headers.get('content-type')).toMatch(/text\/html/);
  const api = await fetch(`${url}api/nosuch/action`, { method: 'POST' });
  expect(await api.json()).toEqual({ error_code: 10404, error_message: 'Invalid request' });
  expect(fs.existsSync(engineSocketPath(env.DATA_DIR))).toBe(true);

  first.child.kill('SIGTERM');
  const stopped = await first.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain('Quire stopped.');
  expect(fs.existsSync(engineSocketPath(env.DATA_DIR))).toBe(false);
  // The request log line for "/" is there, structured.
  const lines = stopped.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  expect(lines).toContainEqual(
    expect.objectContaining({ msg: 'request', method: 'GET', path: '/', status: 200 }),
  );

  const second = startScript('start', [], { cwd, env });
  await second.waitForOutput(READY);
  expect(second.stdout()).not.toMatch(/Password:|admin account/);
  second.child.kill('SIGINT');
  const again = await second.exited;
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('SIGINT received');
});
