/**
 * `npm run quire -- engine:serve`: the embedded engine served on its own over TCP, the database
 * host of a scaled install. A Quire started with `MONGODB_URI` at the URI it prints works against
 * it (the driver discovers the engine from that URI alone); while the engine is down that Quire
 * answers at once with HTTP 503, code 10505 and Retry-After, and once the engine is back (on the
 * same data folder, after a kill -9) everything acknowledged before is there and requests flow
 * again. Wildcard and missing addresses are refused; SIGTERM stops it cleanly.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../helpers/daemon';
import { eventually } from '../helpers/embedded';
import { killAllChildren, runCli, startScript, type RunningScript } from '../helpers/processes';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('quire-engine-serve-');
});
afterAll(async () => {
  await killAllChildren();
  await rm(dir, { recursive: true, force: true });
});

const SERVING = /Quire engine serving .* at (mongodb:\/\/\S+)/;

function serve(port: number): RunningScript {
  return startScript(
    'cli',
    ['engine:serve', '--host', '127.0.0.1', '--port', String(port), '--data', path.join(dir, 'db')],
    { env: {}, cwd: dir },
  );
}

describe('engine:serve', () => {
  test('refuses a wildcard or missing address, with the reason', async () => {
    for (const args of [['--host', '0.0.0.0'], ['--host', '::'], []]) {
      const run = await runCli(['engine:serve', ...args, '--data', path.join(dir, 'refused')], {
        env: {},
        cwd: dir,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--host/);
    }
    expect(fs.existsSync(path.join(dir, 'refused'))).toBe(false);
  });

  describe('a Quire on the served engine', () => {
    let port: number;
    let engine: RunningScript;
    let quire: TestServer;
    let token: string;

    beforeAll(async () => {
      port = await freePort();
      engine = serve(port);
      const printed = await engine.waitForOutput(SERVING);
      const uri = SERVING.exec(printed)![1];
      expect(uri).toBe(`mongodb://127.0.0.1:${port}/quire`);
      quire = await startTestServer({ env: { MONGODB_URI: uri } });
      ({ user_token: token } = await makeUser());
    });
    afterAll(async () => {
      await quire?.stop();
    });

    test('answers 503 / 10505 with Retry-After while the engine is down, and loses nothing acknowledged', async () => {
      const api = quire.api.withToken(token);
      const { item_id } = await api.ok<{ item_id: number }>('item/add', {
        item_name: 'On the host',
      });
      const { page_id } = await api.ok<{ page_id: number }>('page/save', {
        item_id,
        page_title: 'Before the crash',
        page_content: 'acknowledged before kill -9',
      });

      engine.child.kill('SIGKILL');
      await engine.exited;
      const down = await eventually(
        async () => {
          const answer = await api.call('page/info', { page_id });
          expect(answer.status).toBe(503);
          return answer;
        },
        { timeoutMs: 10_000 },
      );
      expect(down.body).toEqual({
        error_code: 10505,
        error_message: 'Database unavailable, try again shortly',
      });
      expect(down.headers.get('retry-after')).toBe('5');
      // Refused at once, not after mongoose's 10 s of buffering.
      const started = Date.now();
      expect((await api.call('page/info', { page_id })).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(1000);

      engine = serve(port);
      await engine.waitForOutput(SERVING);
      const page = await eventually(
        () => api.ok<{ page_content: string }>('page/info', { page_id }),
        { timeoutMs: 15_000 },
      );
      expect(page.page_content).toBe('acknowledged before kill -9');
      await api.ok('page/save', {
        item_id,
        page_id,
        page_title: 'After the restart',
        page_content: 'saved again',
      });
    });

    test('SIGTERM stops it cleanly', async () => {
      engine.child.kill('SIGTERM');
      const finished = await engine.exited;
      expect(finished.code).toBe(0);
      expect(finished.stdout).toMatch(/Quire engine stopped\./);
    });
  });
});
