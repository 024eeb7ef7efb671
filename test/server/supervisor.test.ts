/**
 * `npm start` supervises its server. WORKERS=1: a kill -9 of the serving process during a write
 * load loses no acknowledged write, the site answers again (restart + engine journal recovery).
 * WORKERS=2: `npm start`'s own process is the cluster primary (no process between it and the
 * workers); a kill -9 of the lead worker (which runs the engine), then of the other worker,
 * during a write load: each is replaced, no acknowledged write lost, the site answers again.
 * Either way the admin CLI keeps reaching the running engine through its socket before and after.
 */
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ShowdocClient } from '../helpers/client';
import { killAllChildren, runCli, startScript } from '../helpers/processes';
import { makeTempDir } from '../helpers/server';
import { workerPids } from '../helpers/quireProcesses';

const dirs: string[] = [];
let writing = false;
afterAll(async () => {
  writing = false;
  await killAllChildren();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const READY = /Quire is ready at (http:\/\/\S+)/;
const STARTED = /Quire server process started \(pid (\d+)\)/g;

function pids(output: string): number[] {
  return [...output.matchAll(STARTED)].map((m) => Number(m[1]));
}

/** Waits for a condition, failing with its name rather than at the test timeout. */
async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}healthz`)).status === 200;
  } catch {
    return false;
  }
}

/** Pages written in a loop until `finish()`; what was acknowledged, and how many were not. */
function writeLoad(api: ShowdocClient, item_id: number) {
  const acknowledged: { page_id: number; content: string }[] = [];
  let refused = 0;
  writing = true;
  const load = (async () => {
    for (let n = 0; writing; n++) {
      const content = `write ${n}`;
      try {
        const answer = await api.call('page/save', {
          page_id: 0,
          item_id,
          page_title: `P${n}`,
          page_content: content,
        });
        if (answer.body.error_code === 0)
          acknowledged.push({
            page_id: Number((answer.body.data as { page_id: number }).page_id),
            content,
          });
        else refused++;
      } catch {
        refused++; // connection refused or cut while the server was down: not acknowledged
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  })();
  return {
    acknowledged,
    refused: () => refused,
    async finish() {
      writing = false;
      await load;
    },
    /** Every acknowledged write reads back as it was written. */
    async verify() {
      for (const { page_id, content } of acknowledged) {
        const page = await api.ok<{ page_content: string }>('page/info', { page_id });
        expect({ page_id, content: page.page_content }).toEqual({ page_id, content });
      }
    },
  };
}

/** `npm start` in a new directory, ready, with an item to write to and the CLI's token. */
async function startQuire(workers: string) {
  const cwd = await makeTempDir('quire-supervise-');
  dirs.push(cwd);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: `${cwd}/data`,
    ADMIN_PASSWORD: 'Admin-pass-1',
    WORKERS: workers,
  };
  const quire = startScript('start', [], { cwd, env });
  const url = READY.exec(await quire.waitForOutput(READY))![1];
  const cli = (args: string[]) => runCli(args, { cwd, env: { DATA_DIR: env.DATA_DIR } });
  /** `npm start` again in the same directory (after the first has gone). */
  const restart = async () => {
    const script = startScript('start', [], { cwd, env });
    return { script, url: READY.exec(await script.waitForOutput(READY))![1] };
  };
  const tokenRun = await cli(['user:token', 'showdoc']);
  expect(tokenRun.stderr).toContain("the running server's engine");
  const api = new ShowdocClient(url, tokenRun.stdout.trim());
  const { item_id } = await api.ok<{ item_id: number }>('item/add', { item_name: 'Load' });
  return { quire, url, api, item_id, cli, restart, dataDir: env.DATA_DIR };
}

test('WORKERS=1: kill -9 of the server under a page/save loop: restarted, every acknowledged write kept, CLI still works', async () => {
  const { quire, url, api, item_id, cli } = await startQuire('1');
  const { acknowledged, refused, finish, verify } = writeLoad(api, item_id);

  await until('20 acknowledged writes', () => acknowledged.length >= 20);
  const [first] = pids(quire.stdout());
  const killedAt = Date.now();
  process.kill(first, 'SIGKILL');
  await quire.waitForOutput(/exited unexpectedly \(SIGKILL\); restarting/);
  await until('/healthz to answer 200', () => healthy(url));
  const downMs = Date.now() - killedAt;
  const ackBefore = acknowledged.length;
  await until('10 more acknowledged writes', () => acknowledged.length >= ackBefore + 10);
  await finish();

  process.stdout.write(
    `supervisor: site answered again ${downMs} ms after kill -9; ${acknowledged.length} writes acknowledged, ${refused()} refused\n`,
  );
  const second = pids(quire.stdout())[1];
  expect(second).toBeGreaterThan(0);
  expect(second).not.toBe(first);
  expect(quire.child.exitCode).toBeNull(); // the supervisor itself never went down

  await verify();

  const again = await cli(['user:token', 'showdoc']);
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("the running server's engine");

  quire.child.kill('SIGTERM');
  const stopped = await quire.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain('Quire stopped.');
}, 120_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('WORKERS=2: npm start is the primary; kill -9 of the lead worker (the engine), then of the other, under a page/save loop: each replaced, every acknowledged write kept, CLI still works', async () => {
  const { quire, url, api, item_id, cli } = await startQuire('2');
  const primary = quire.child.pid!;
  // No process between npm start's and the workers: its children are the two workers.
  expect([...workerPids(primary).keys()].sort()).toEqual([0, 1]);
  expect(quire.stdout()).not.toMatch(/Quire server process started/);

  const { acknowledged, refused, finish, verify } = writeLoad(api, item_id);
  for (const slot of [0, 1]) {
    await until('20 more acknowledged writes', () => acknowledged.length >= 20 * (slot + 1));
    const victim = workerPids(primary).get(slot)!;
    process.kill(victim, 'SIGKILL');
    await quire.waitForOutput(
      new RegExp(`Quire worker ${slot} \\(pid ${victim}\\) exited \\(SIGKILL\\); replacing it`),
    );
    await until(`worker ${slot} replaced`, () => {
      const now = workerPids(primary).get(slot);
      return now !== undefined && now !== victim;
    });
    await until('/healthz to answer 200', () => healthy(url));
    const ackBefore = acknowledged.length;
    await until('10 more acknowledged writes', () => acknowledged.length >= ackBefore + 10);
  }
  await finish();
  process.stdout.write(
    `supervisor (WORKERS=2): ${acknowledged.length} writes acknowledged, ${refused()} not\n`,
  );
  expect(quire.child.exitCode).toBeNull();
  await verify();

  const again = await cli(['user:token', 'showdoc']);
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("the running server's engine");

  const last = [...workerPids(primary).values()];
  quire.child.kill('SIGTERM');
  const stopped = await quire.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain('Quire stopped.');
  expect(last.filter(alive)).toEqual([]);
}, 180_000);

test('WORKERS=2: kill -9 of npm start itself (the primary): the workers stop on their own, the lead flushing its engine; the next start finds every acknowledged write', async () => {
  const { quire, api, item_id, cli, restart, dataDir } = await startQuire('2');
  const primary = quire.child.pid!;
  const workers = [...workerPids(primary).values()];
  expect(workers).toHaveLength(2);
  const { page_id } = await api.ok<{ page_id: number }>('page/save', {
    page_id: 0,
    item_id,
    page_title: 'Before the kill',
    page_content: 'kept',
  });
  try {
    process.kill(primary, 'SIGKILL');
    // No orphan keeps serving or holds the engine's directory.
    await until('the workers to exit', () => workers.every((pid) => !alive(pid)));
  } finally {
    for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
  }
  // A clean stop, not a crash: each worker finished its stop, and the lead's engine released its
  // directory lock (a crash leaves the lock file behind: models/embedded/persistence/lock.ts).
  for (const slot of [0, 1])
    expect(quire.stdout()).toMatch(new RegExp(`"worker":${slot}[^\\n]*"msg":"stopped"`));
  expect(fs.existsSync(path.join(dataDir, 'engine.lock'))).toBe(false);
  // The directory is free (the CLI opens it itself), and the next start serves the page.
  const token = await cli(['user:token', 'showdoc']);
  expect(token.code).toBe(0);
  expect(token.stderr).not.toContain("the running server's engine");
  const again = await restart();
  const page = await new ShowdocClient(again.url, token.stdout.trim()).ok<{
    page_content: string;
  }>('page/info', { page_id });
  expect(page.page_content).toBe('kept');
  again.script.child.kill('SIGTERM');
  expect((await again.script.exited).code).toBe(0);
}, 120_000);

test.each(['1', '2'])(
  'WORKERS=%s: a server that cannot start (port taken) is not restarted: its message and exit code 1 reach the operator',
  async (workers) => {
    const cwd = await makeTempDir('quire-supervise-');
    dirs.push(cwd);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const quire = startScript('start', [], {
        cwd,
        env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: `${cwd}/data`, WORKERS: workers },
      });
      const finished = await quire.exited;
      expect(finished.code).toBe(1);
      expect(finished.stderr).toMatch(/Quire could not start: .*EADDRINUSE/);
      expect(finished.stdout).not.toMatch(/restarting/);
      expect(pids(finished.stdout)).toHaveLength(workers === '1' ? 1 : 0);
    } finally {
      blocker.close();
    }
  },
  120_000,
);
