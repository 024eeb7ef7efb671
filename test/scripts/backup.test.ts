/**
 * `npm run quire -- backup` / `restore` as real child processes: a backup taken while a server
 * serves (and keeps saving) restores, after the data folder is wiped, to the same pages, history
 * and attachment bytes; restore checks the manifest and refuses to overwrite data without --force;
 * a backup from before schema versions were recorded is migrated by the next start.
 */
import { afterAll, expect, jest, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { BackupManifest } from '../../models/platform/backup';
import { killAllChildren, runCli } from '../helpers/processes';
import { makeTempDir, startTestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';
import { makeItem } from '../helpers/factories';
import { makePage, updatePage } from '../helpers/pages';
import { samples, uploadAs } from '../helpers/uploads';

// Each test runs the CLI, a TypeScript child process, four times: on a busy machine that alone
// can take a minute.
jest.setTimeout(300_000);

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await makeTempDir('quire-backup-');
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAllChildren();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function quire(dataDir: string, ...args: string[]) {
  return runCli(args, { cwd: await tempDir(), env: { DATA_DIR: dataDir, ADMIN_PASSWORD: '' } });
}

async function download(serverUrl: string, sign: string): Promise<Buffer> {
  const response = await fetch(new URL(`/api/common/visitFile/sign/${sign}`, serverUrl));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

test('backup while serving, wipe, restore: pages, history and attachment bytes come back identical', async () => {
  const dataDir = await tempDir();
  const backupDir = path.join(await tempDir(), 'nightly');
  let server = await startTestServer({ dataDir });
  const owner = await makeUser({ username: 'backup_owner' });
  const item = await makeItem(owner, { item_name: 'Runbooks' });
  const page = await makePage(owner, item.item_id, { title: 'Restore', content: 'v1' });
  await updatePage(owner, page, 'v2 with more steps', 'Restore');
  const bytes = samples.pdf();
  const file = await uploadAs(server.url, owner, 'plan.pdf', bytes, {
    item_id: item.item_id,
    page_id: page.page_id,
  });
  const before = await server.api
    .withToken(owner.user_token)
    .ok<{ page_content: string }>('page/info', { page_id: page.page_id });
  const historyBefore = await server.api
    .withToken(owner.user_token)
    .ok<unknown[]>('page/history', { page_id: page.page_id });
  expect(historyBefore.length).toBeGreaterThan(0);

  // Saves keep landing while the backup runs: it must still be one consistent picture.
  let saving = true;
  const busy = (async () => {
    for (let n = 0; saving; n++) await makePage(owner, item.item_id, { title: `During ${n}` });
  })();
  const backup = await quire(dataDir, 'backup', backupDir);
  saving = false;
  await busy;
  expect(backup.stderr).toContain("running server's engine");
  expect(backup.code).toBe(0);
  expect(backup.stdout).toMatch(/files: 1 \(\d+ bytes\)/);

  const manifest = JSON.parse(
    fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'),
  ) as BackupManifest;
  expect(manifest.format).toBe(1);
  expect(manifest.quireVersion).toMatch(/^\d+\.\d+\.\d+/);
  expect(manifest.files.some((f) => f.path.startsWith('files/') && f.bytes === bytes.length)).toBe(
    true,
  );
  const pagesBacked = manifest.collections.find((c) => c.name === 'page')!.documents;
  expect(pagesBacked).toBeGreaterThanOrEqual(1);

  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true }); // the disaster
  fs.mkdirSync(dataDir);

  const restored = await quire(dataDir, 'restore', backupDir);
  expect({ code: restored.code, stderr: restored.stderr }).toMatchObject({ code: 0 });
  expect(restored.stdout).toContain('files: 1');

  server = await startTestServer({ dataDir });
  try {
    const client = server.api.withToken(owner.user_token); // tokens come back with the users
    const after = await client.ok<{ page_content: string }>('page/info', { page_id: page.page_id });
    expect(after.page_content).toBe(before.page_content);
    expect(after.page_content).toBe('v2 with more steps');
    expect(await client.ok<unknown[]>('page/history', { page_id: page.page_id })).toEqual(
      historyBefore,
    );
    expect((await download(server.url, file.sign)).equals(bytes)).toBe(true);
    const pages = await client.ok<{ menu: { pages: unknown[] } }>('item/info', {
      item_id: item.item_id,
    });
    expect(pages.menu.pages).toHaveLength(pagesBacked);

    // Now the target holds data: a second restore refuses, --force replaces.
    const refused = await quire(dataDir, 'restore', backupDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds data \(collection [^)]*\)[\s\S]*--force/);
    const forced = await quire(dataDir, 'restore', backupDir, '--force');
    expect(forced.code).toBe(0);
  } finally {
    await server.stop();
  }
});

test('restore refuses a backup whose files do not match the manifest, and an unfinished one', async () => {
  const dataDir = await tempDir();
  const backupDir = path.join(await tempDir(), 'b');
  const made = await quire(dataDir, 'backup', backupDir);
  expect(made.code).toBe(0);

  const target = await tempDir();
  const bson = path.join(backupDir, 'dump', 'quire', 'user.bson');
  const original = fs.readFileSync(bson);
  fs.writeFileSync(bson, Buffer.concat([original, Buffer.from([0])]));
  const tampered = await quire(target, 'restore', backupDir);
  expect(tampered.code).toBe(1);
  expect(tampered.stderr).toContain('dump/quire/user.bson does not match its sha256');

  fs.writeFileSync(bson, original);
  fs.rmSync(path.join(backupDir, 'manifest.json'));
  const unfinished = await quire(target, 'restore', backupDir);
  expect(unfinished.code).toBe(1);
  expect(unfinished.stderr).toContain('not a finished backup');

  const again = await quire(dataDir, 'backup', backupDir);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('is not empty');
});

test('a backup from before schema versions were recorded: restored, the next start migrates it after a backup', async () => {
  const dataDir = await tempDir();
  const backupDir = path.join(await tempDir(), 'old-release');
  let server = await startTestServer({ dataDir });
  const owner = await makeUser({ username: 'versions_owner' });
  const item = await makeItem(owner, { item_name: 'Old' });
  await makePage(owner, item.item_id, { title: 'Kept', content: 'from the old release' });
  expect((await quire(dataDir, 'backup', backupDir)).code).toBe(0);
  await server.stop();

  // What the previous release's backup looked like: no quire_meta collection.
  const dump = path.join(backupDir, 'dump', 'quire');
  const manifestFile = path.join(backupDir, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  for (const name of ['quire_meta.bson', 'quire_meta.metadata.json'])
    fs.rmSync(path.join(dump, name), { force: true });
  manifest.files = manifest.files.filter((f) => !f.path.includes('quire_meta'));
  manifest.collections = manifest.collections.filter((c) => c.name !== 'quire_meta');
  fs.writeFileSync(manifestFile, JSON.stringify(manifest));

  const restored = await quire(dataDir, 'restore', backupDir, '--force');
  expect({ code: restored.code, stderr: restored.stderr }).toMatchObject({ code: 0 });

  server = await startTestServer({ dataDir });
  try {
    expect(server.printed.join('\n')).toMatch(/Migrated the database from schema version 0 to/);
    expect(fs.readdirSync(path.join(dataDir, 'backups'))).toHaveLength(1);
  } finally {
    await server.stop();
  }
});
