/**
 * The admin CLI (`npm run quire -- …`) as a real child process: against a stopped installation
 * (it opens DATA_DIR itself) and against a running server (it goes through the engine's socket).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { readBsonFile } from '../../models/platform/dump';
import { findUserByName, userForToken, verifyPassword } from '../../models/accounts/users';
import { inspectDataDir as inspect, killAllChildren, runCli } from '../helpers/processes';
import { makeTempDir, startTestServer } from '../helpers/server';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await makeTempDir('quire-cli-');
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAllChildren();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI on a data directory, from an empty working directory. */
async function quire(dataDir: string, ...args: string[]) {
  const cwd = await tempDir();
  return runCli(args, { cwd, env: { DATA_DIR: dataDir, ADMIN_PASSWORD: '' } });
}

describe('with the server stopped', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await tempDir();
  });

  test('user:create makes an account (admin with --admin) on the directory itself', async () => {
    const made = await quire(dataDir, 'user:create', 'carol', '--password', 'carol-pass');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Created user carol \(uid \d+\)\.\n$/);
    expect(made.stderr).toContain('embedded engine in');

    const admin = await quire(dataDir, 'user:create', 'dave', '--password', 'dave-pass', '--admin');
    expect(admin.stdout).toMatch(/Created admin dave/);

    await inspect(dataDir, async () => {
      const carol = await findUserByName('carol');
      expect(carol?.groupid).toBe(2);
      expect(await verifyPassword(carol!, 'carol-pass')).toBe(true);
      expect((await findUserByName('dave'))?.groupid).toBe(1);
    });
  });

  test('user:password sets a new password; user:token prints only a fresh 128-hex token', async () => {
    const changed = await quire(dataDir, 'user:password', 'carol', 'carol-new-pass');
    expect(changed.code).toBe(0);
    const token = await quire(dataDir, 'user:token', 'carol');
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^[0-9a-f]{128}\n$/);

    await inspect(dataDir, async () => {
      const carol = await findUserByName('carol');
      expect(await verifyPassword(carol!, 'carol-new-pass')).toBe(true);
      expect((await userForToken(token.stdout.trim()))?.username).toBe('carol');
    });
  });

  test('mistakes exit non-zero with a message: taken name, unknown user, missing argument, unknown command', async () => {
    const taken = await quire(dataDir, 'user:create', 'carol', '--password', 'x1');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('Username already exists');

    const unknown = await quire(dataDir, 'user:token', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('User nobody not found');

    const missing = await quire(dataDir, 'user:create', 'erin');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing --password');

    const bogus = await quire(dataDir, 'db:frobnicate');
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('Unknown command: db:frobnicate');
  });

  test('db:export writes the mongodump layout and db:import restores it into another installation', async () => {
    const dumpDir = await tempDir();
    const exported = await quire(dataDir, 'db:export', dumpDir);
    expect(exported.code).toBe(0);
    const folder = path.join(dumpDir, 'quire');
    expect(fs.readdirSync(folder)).toEqual(
      expect.arrayContaining([
        'user.bson',
        'user.metadata.json',
        'user_token.bson',
        'counters.bson',
      ]),
    );
    const metadata = JSON.parse(fs.readFileSync(path.join(folder, 'user.metadata.json'), 'utf8'));
    expect(metadata.collectionName).toBe('user');
    expect(metadata.indexes.map((i: { name: string }) => i.name)).toEqual(
      expect.arrayContaining(['_id_', 'uid_1', 'username_1']),
    );
    const usernames: string[] = [];
    for await (const doc of readBsonFile(path.join(folder, 'user.bson')))
      usernames.push(doc.username);
    expect(usernames.sort()).toEqual(['carol', 'dave']); // the CLI never creates the first admin: the server does

    const target = await tempDir();
    const imported = await quire(target, 'db:import', dumpDir);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/user: 2 documents/);
    await inspect(target, async () => {
      const carol = await findUserByName('carol');
      expect(await verifyPassword(carol!, 'carol-new-pass')).toBe(true);
    });
    // The restored unique index is enforced.
    const duplicate = await quire(target, 'user:create', 'carol', '--password', 'x1');
    expect(duplicate.code).toBe(1);
  });
});

describe('with the server running', () => {
  test("commands go through the running engine's socket and their effects are live in the server", async () => {
    const server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
    try {
      const made = await quire(server.dataDir, 'user:create', 'frank', '--password', 'frank-pass');
      expect(made.code).toBe(0);
      expect(made.stderr).toContain("the running server's engine");
      expect((await findUserByName('frank'))?.username).toBe('frank');

      const token = await quire(server.dataDir, 'user:token', 'frank');
      expect((await userForToken(token.stdout.trim()))?.username).toBe('frank');

      const changed = await quire(server.dataDir, 'user:password', 'frank', 'frank-pass-2');
      expect(changed.code).toBe(0);
      expect(await verifyPassword((await findUserByName('frank'))!, 'frank-pass-2')).toBe(true);
      expect(await userForToken(token.stdout.trim())).toBeNull(); // revoked with the change

      const dumpDir = await tempDir();
      const exported = await quire(server.dataDir, 'db:export', dumpDir);
      expect(exported.code).toBe(0);
      expect(fs.existsSync(path.join(dumpDir, 'quire', 'user.bson'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
