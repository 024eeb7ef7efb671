/**
 * The data-directory lock: one opener at a time, within a process and across processes, and a
 * lock left behind by a dead process is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { EngineLockedError, openPersistence } from '../../../../models/embedded/persistence';
import { exited, LineReader, makeTempDir, removeDir, spawnFixture } from './helpers';

let dataDir: string;
beforeEach(() => {
  dataDir = makeTempDir('lock');
});
afterEach(() => removeDir(dataDir));

const lockFile = (): string => path.join(dataDir, 'engine.lock');

async function runOpenOnce(): Promise<{
  opened: boolean;
  locked?: boolean;
  holderPid?: number | null;
  message?: string;
  pid?: number;
}> {
  const child = spawnFixture('open-once.ts', [dataDir]);
  const reader = new LineReader(child.stdout);
  const line = await reader.waitFor((l) => l.startsWith('{'));
  await exited(child);
  return JSON.parse(line);
}

/** The pid of a process that has exited (and so is not running). */
async function deadPid(): Promise<number> {
  const scratch = makeTempDir('dead');
  const child = spawnFixture('open-once.ts', [scratch]);
  const pid = child.pid!;
  await exited(child);
  removeDir(scratch);
  return pid;
}

describe('data directory lock', () => {
  it('refuses a second open in the same process, naming this process', async () => {
    const { persistence } = await openPersistence({ dataDir });
    const second = openPersistence({ dataDir: `${dataDir}/./` }); // another spelling of the same path
    await expect(second).rejects.toBeInstanceOf(EngineLockedError);
    await expect(second).rejects.toThrow(
      `data directory ${dataDir} is in use by process ${process.pid}`,
    );
    await expect(second).rejects.toMatchObject({ holderPid: process.pid });
    await persistence.close();
    expect(fs.existsSync(lockFile())).toBe(false);
    const third = await openPersistence({ dataDir });
    await third.persistence.close();
  });

  it('refuses a child process while this process holds the directory', async () => {
    const { persistence } = await openPersistence({ dataDir });
    const result = await runOpenOnce();
    await persistence.close();
    expect(result).toEqual({
      opened: false,
      locked: true,
      holderPid: process.pid,
      message: `data directory ${dataDir} is in use by process ${process.pid}`,
    });
    expect((await runOpenOnce()).opened).toBe(true);
  });

  it('refuses this process while a child holds it, and takes the lock over once the child is killed', async () => {
    const child = spawnFixture('hold-lock.ts', [dataDir]);
    await new LineReader(child.stdout).waitFor((line) => line === 'locked');
    const refused = openPersistence({ dataDir });
    await expect(refused).rejects.toMatchObject({
      name: 'EngineLockedError',
      holderPid: child.pid,
    });
    await expect(refused).rejects.toThrow(`is in use by process ${child.pid}`);

    child.kill('SIGKILL');
    await exited(child);
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).pid).toBe(child.pid); // left behind
    const { persistence } = await openPersistence({ dataDir });
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    await persistence.close();
  });

  it('releases the lock when a holder closes cleanly', async () => {
    const child = spawnFixture('hold-lock.ts', [dataDir]);
    await new LineReader(child.stdout).waitFor((line) => line === 'locked');
    child.stdin.end();
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock file whose pid is not running', async () => {
    const pid = await deadPid();
    fs.writeFileSync(lockFile(), JSON.stringify({ pid, startTime: null, nonce: 'x' }));
    const { persistence } = await openPersistence({ dataDir });
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    await persistence.close();
  });

  it('takes over a lock carrying a live pid whose process started at another time (pid reused)', async () => {
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: 1, startTime: '1', nonce: 'x' }));
    const { persistence } = await openPersistence({ dataDir });
    await persistence.close();
  });

  it('takes over a stale lock carrying this very pid (a restart that got the same pid)', async () => {
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.pid, startTime: null, nonce: 'x' }));
    const { persistence } = await openPersistence({ dataDir });
    await persistence.close();
  });

  it('takes over an old unreadable lock (torn by a crash while being written)', async () => {
    fs.writeFileSync(lockFile(), '{"pi');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile(), old, old);
    const { persistence } = await openPersistence({ dataDir });
    await persistence.close();
  });

  it('lets exactly one of several racing processes open a directory with a stale lock', async () => {
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ pid: await deadPid(), startTime: null, nonce: 'x' }),
    );
    const children = Array.from({ length: 4 }, () => spawnFixture('hold-lock.ts', [dataDir]));
    const outcomes = await Promise.all(
      children.map(async (child) => {
        const reader = new LineReader(child.stdout);
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += String(chunk)));
        const raced = await Promise.race([
          reader.waitFor((line) => line === 'locked'),
          exited(child).then(() => 'exited'),
        ]);
        return { child, raced, stderr };
      }),
    );
    const winners = outcomes.filter((o) => o.raced === 'locked');
    expect(winners).toHaveLength(1);
    for (const loser of outcomes.filter((o) => o.raced !== 'locked')) {
      expect(loser.stderr).toContain(`is in use by process ${winners[0].child.pid}`);
    }
    winners[0].child.stdin.end();
    await Promise.all(children.map((child) => exited(child)));
  });
});
