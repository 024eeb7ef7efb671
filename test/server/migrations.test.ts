/**
 * Versioned migrations at start (models/platform/migrations.ts, server/migrations.ts), with the
 * real server as a child process on a data folder written in the previous release's format: no
 * schema version recorded, and a page whose live draft is not flagged on the page (`has_draft`
 * absent). The start takes a backup first (holding the old shape), runs the step, records the
 * version; a second start runs nothing and takes no backup; a new installation is stamped with
 * the latest version without a backup; a database newer than the code is refused, untouched.
 */
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { readBsonFile } from '../../models/platform/dump';
import { META_COLLECTION, latestVersion } from '../../models/platform/migrations';
import { openDatabase, type Database } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { MIGRATIONS } from '../../server/migrations';
import { startQuireProcess, stopAllQuires, type QuireProcess } from '../helpers/quireProcesses';
import { makeTempDir } from '../helpers/server';

const dirs: string[] = [];
let db: Database | undefined;

afterEach(async () => {
  await db?.close();
  db = undefined;
  await stopAllQuires();
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The data folder itself (no server running) or the running server's engine over its socket. */
async function openHere(dataDir: string): Promise<Database> {
  db = await openDatabase({
    mongodbUri: '',
    dataDir,
    logger: createLogger({ level: 'silent' }),
    role: 'tool',
  });
  return db;
}

async function closeHere(): Promise<void> {
  await db?.close();
  db = undefined;
}

async function newDataDir(): Promise<{ dir: string; dataDir: string }> {
  const dir = await makeTempDir('quire-migrate-');
  dirs.push(dir);
  return { dir, dataDir: path.join(dir, 'data') };
}

function start(dir: string, dataDir: string): Promise<QuireProcess> {
  return startQuireProcess(
    'serve',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      WORKERS: '1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Admin-pass-1',
      GC_AFTER_START: 'false',
    },
    { cwd: dir, startTimeoutMs: 120_000 },
  );
}

const backupsOf = (dataDir: string) => {
  const folder = path.join(dataDir, 'backups');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

const versionRecord = (database: Database) =>
  database.connection
    .db!.collection<{ _id: string; version: number; history: { id: number }[] }>(META_COLLECTION)
    .findOne({ _id: 'schema_version' });

describe('migrations at start', () => {
  test('a data folder of the previous format: backup first, then migrated; a second start runs nothing', async () => {
    const { dir, dataDir } = await newDataDir();
    // The previous release's shape, written straight into the engine's files.
    const old = await openHere(dataDir);
    expect(old.via).toBe('own-engine');
    await old.connection.db!.collection('page').insertOne({
      page_id: 41,
      item_id: 7,
      cat_id: 0,
      page_title: 'Written by the previous release',
      page_content: 'saved text',
      author_uid: 1,
      author_username: 'old',
      s_number: 99,
      addtime: 1_700_000_000,
      is_del: 0,
    });
    await old.connection.db!.collection('page_draft').insertOne({
      page_id: 41,
      item_id: 7,
      state: Buffer.alloc(0),
      text: 'an unsaved draft',
      base_hash: 'x',
      by_uid: 1,
      saved: 0,
      updated_at: 1_700_000_001,
    });
    await closeHere();

    const first = await start(dir, dataDir);
    expect(first.output()).toMatch(
      new RegExp(`Migrated the database from schema version 0 to ${latestVersion(MIGRATIONS)}`),
    );
    const backups = backupsOf(dataDir);
    expect(backups).toHaveLength(1);
    // The backup holds the data as it was before the step ran.
    const dump = path.join(dataDir, 'backups', backups[0], 'dump', 'quire');
    expect(fs.existsSync(path.join(dataDir, 'backups', backups[0], 'manifest.json'))).toBe(true);
    const backedUp = [];
    for await (const page of readBsonFile(path.join(dump, 'page.bson'))) backedUp.push(page);
    expect(backedUp.map((p) => Number(p.page_id))).toEqual([41]);
    expect('has_draft' in backedUp[0]).toBe(false);

    const live = await openHere(dataDir);
    expect(live.via).toBe('engine-socket');
    const page = await live.connection.db!.collection('page').findOne({ page_id: 41 });
    expect(page).toMatchObject({ page_title: 'Written by the previous release', has_draft: 1 });
    const record = await versionRecord(live);
    expect(record).toMatchObject({ version: latestVersion(MIGRATIONS) });
    expect(record!.history.map((h) => h.id)).toEqual(MIGRATIONS.map((m) => m.id));
    await closeHere();
    expect(await first.stop()).toBe(0);

    const second = await start(dir, dataDir);
    expect(second.output()).not.toMatch(/Migrated the database/);
    expect(backupsOf(dataDir)).toEqual(backups);
    const again = await openHere(dataDir);
    expect((await versionRecord(again))!.history).toHaveLength(MIGRATIONS.length);
    await closeHere();
    expect(await second.stop()).toBe(0);
  }, 300_000);

  test('a new installation is stamped with the latest version, no backup; a newer database is refused untouched', async () => {
    const { dir, dataDir } = await newDataDir();
    const fresh = await start(dir, dataDir);
    expect(fresh.output()).not.toMatch(/Migrated the database/);
    expect(backupsOf(dataDir)).toEqual([]);
    const live = await openHere(dataDir);
    expect(await versionRecord(live)).toMatchObject({ version: latestVersion(MIGRATIONS) });
    await closeHere();
    expect(await fresh.stop()).toBe(0);

    // As if a newer Quire had run on it.
    const newer = await openHere(dataDir);
    await newer.connection
      .db!.collection<{ _id: string; version: number }>(META_COLLECTION)
      .updateOne({ _id: 'schema_version' }, { $set: { version: 999 } });
    await closeHere();

    const refused = start(dir, dataDir);
    await expect(refused).rejects.toThrow(/exited \(1\) before it was ready/);
    await expect(refused).rejects.toThrow(/schema version 999, written by a newer Quire/);
    expect(backupsOf(dataDir)).toEqual([]);
    const after = await openHere(dataDir);
    expect(await versionRecord(after)).toMatchObject({ version: 999 });
  }, 300_000);
});
