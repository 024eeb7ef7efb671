/**
 * `npm start` supervises its server: a kill -9 of the serving process during a write load loses no
 * acknowledged write, the site answers again (restart + engine journal recovery), and the admin
 * CLI keeps reaching the running engine through its socket before and after the restart.
 */
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import { ShowdocClient } from '../helpers/client';
import { killAllChildren, runCli, startScript } from '../helpers/processes';
import { makeTempDir } from '../helpers/server';

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

test('kill -9 of the server under a page/save loop: restarted, every acknowledged write kept, CLI still works', async () => {
  const cwd = await makeTempDir('quire-supervise-');
  dirs.push(cwd);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: `${cwd}/data`,
    ADMIN_PASSWORD: 'Admin-pass-1',
  };
  const quire = startScript('start', [], { cwd, env });
  const url = READY.exec(await quire.waitForOutput(READY))![1];

  const tokenRun = await runCli(['user:token', 'showdoc'], {
    cwd,
    env: { DATA_DIR: env.DATA_DIR },
  });
  expect(tokenRun.stderr).toContain("the running server's engine");
  const api = new ShowdocClient(url, tokenRun.stdout.trim());
  const { item_id } = await api.ok<{ item_id: number }>('item/add', { item_name: 'Load' });

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

  await until('20 acknowledged writes', () => acknowledged.length >= 20);
  const [first] = pids(quire.stdout());
  const killedAt = Date.now();
  process.kill(first, 'SIGKILL');
  await quire.waitForOutput(/exited unexpectedly \(SIGKILL\); restarting/);
  await until('/healthz to answer 200', () => healthy(url));
  const downMs = Date.now() - killedAt;
  const ackBefore = acknowledged.length;
  await until('10 more acknowledged writes', () => acknowledged.length >= ackBefore + 10);
  writing = false;
  await load;

  process.stdout.write(
    `supervisor: site answered again ${downMs} ms after kill -9; ${acknowledged.length} writes acknowledged, ${refused} refused\n`,
  );
  const second = pids(quire.stdout())[1];
  expect(second).toBeGreaterThan(0);
  expect(second).not.toBe(first);
  expect(quire.child.exitCode).toBeNull(); // the supervisor itself never went down

  for (const { page_id, content } of acknowledged) {
    const page = await api.ok<{ page_content: string }>('page/info', { page_id });
    expect({ page_id, content: page.page_content }).toEqual({ page_id, content });
  }

  const again = await runCli(['user:token', 'showdoc'], { cwd, env: { DATA_DIR: env.DATA_DIR } });
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("the running server's engine");

  quire.child.kill('SIGTERM');
  const stopped = await quire.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain('Quire stopped.');
}, 120_000);

test('a server that cannot start (port taken) is not restarted: its message and exit code 1 reach the operator', async () => {
  const cwd = await makeTempDir('quire-supervise-');
  dirs.push(cwd);
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as net.AddressInfo;
  try {
    const quire = startScript('start', [], {
      cwd,
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: `${cwd}/data` },
    });
    const finished = await quire.exited;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/Quire could not start: .*EADDRINUSE/);
    expect(finished.stdout).not.toMatch(/restarting/);
    expect(pids(finished.stdout)).toHaveLength(1);
  } finally {
    blocker.close();
  }
}, 120_000);
