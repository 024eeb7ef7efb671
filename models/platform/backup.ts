/**
 * `quire backup <dir>` / `quire restore <dir>`: the database and the uploaded files together,
 * taken while Quire serves, checked before anything is restored.
 *
 *   <dir>/manifest.json   format, Quire's version, time, collection counts, sha256 of every file
 *   <dir>/dump/<db>/…     the database in db:export's (mongodump's) layout
 *   <dir>/files/…         the local file storage (DATA_DIR/files) as it lies on disk
 *
 * Consistency: the collections are read in one snapshot (dump.ts), then the files are copied. An
 * upload stores its file before the row naming it, and files are never rewritten in place (every
 * upload gets a new key), so every file the dump names is already on disk when it is copied; files
 * that appear meanwhile are merely extra. A file deleted between the dump and its copy is the only
 * gap, and it is reported (`missing`), never silently skipped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db, MongoClient } from 'mongodb';
import { type CollectionReport, exportDatabase, importDatabase } from './dump';

export const BACKUP_FORMAT = 1;
const MANIFEST = 'manifest.json';
/** Upload staging folder of the local storage (storage/local.ts): never part of a backup. */
const STAGING = '.incoming';

export interface BackupManifest {
  format: number;
  quireVersion: string;
  createdAt: string;
  database: string;
  collections: CollectionReport[];
  /** Every file of the backup but the manifest, by its path relative to the backup folder. */
  files: { path: string; bytes: number; sha256: string }[];
  /** Files the dump may name that were deleted before they could be copied. */
  missing: string[];
}

export class BackupError extends Error {}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every regular file under `root`, relative, '/'-separated, sorted; none when it is absent. */
async function listFiles(root: string, skipTop: string[] = []): Promise<string[]> {
  const found: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && skipTop.includes(entry.name)) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  }
  await walk('');
  return found.sort();
}

async function isEmptyFolder(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

export interface BackupOptions {
  db: Db;
  client: MongoClient;
  /** The local file storage's root (DATA_DIR/files). */
  filesRoot: string;
  target: string;
  quireVersion: string;
  now?: () => Date;
}

export async function createBackup(options: BackupOptions): Promise<BackupManifest> {
  const { db, client, filesRoot, target } = options;
  if (!(await isEmptyFolder(target)))
    throw new BackupError(`${target} is not empty: a backup goes into a new or empty folder.`);
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  await fsp.mkdir(target, { recursive: true });

  const collections = await exportDatabase(db, path.join(target, 'dump'), { snapshotOf: client });

  const missing: string[] = [];
  for (const rel of await listFiles(filesRoot, [STAGING])) {
    const to = path.join(target, 'files', ...rel.split('/'));
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      await fsp.copyFile(path.join(filesRoot, ...rel.split('/')), to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(rel); // deleted since it was listed
    }
  }

  const files: BackupManifest['files'] = [];
  for (const rel of await listFiles(target)) {
    const file = path.join(target, ...rel.split('/'));
    files.push({ path: rel, bytes: (await fsp.stat(file)).size, sha256: await sha256Of(file) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    quireVersion: options.quireVersion,
    createdAt,
    database: db.databaseName,
    collections,
    files,
    missing,
  };
  // Written last: a folder without a manifest is an unfinished backup and restore refuses it.
  await fsp.writeFile(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Reads the manifest and checks every file against it; throws BackupError naming the first fault. */
export async function verifyBackup(source: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(
      await fsp.readFile(path.join(source, MANIFEST), 'utf8'),
    ) as BackupManifest;
  } catch (error) {
    throw new BackupError(
      `${source} has no readable ${MANIFEST} (${(error as Error).message}): not a finished backup.`,
    );
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.files))
    throw new BackupError(`${source}: unknown backup format ${JSON.stringify(manifest.format)}.`);
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const rel of await listFiles(source))
    if (rel !== MANIFEST && !listed.has(rel))
      throw new BackupError(`${source}: ${rel} is not in the manifest.`);
  for (const entry of manifest.files) {
    if (entry.path.split('/').some((part) => part === '..' || part === ''))
      throw new BackupError(`${source}: the manifest names an unsafe path ${entry.path}.`);
    const file = path.join(source, ...entry.path.split('/'));
    if (!fs.existsSync(file)) throw new BackupError(`${source}: ${entry.path} is missing.`);
    if ((await sha256Of(file)) !== entry.sha256)
      throw new BackupError(`${source}: ${entry.path} does not match its sha256 in the manifest.`);
  }
  return manifest;
}

/** What already holds data where a restore would write: collections with documents, files. */
export async function existingData(
  db: Db,
  filesRoot: string,
  seeded: Readonly<Record<string, number>>,
): Promise<string[]> {
  const found: string[] = [];
  for (const info of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (info.name.startsWith('system.')) continue;
    const allowed = seeded[info.name] ?? 0;
    const count = await db.collection(info.name).countDocuments({}, { limit: allowed + 1 });
    if (count > allowed) found.push(`collection ${info.name}`);
  }
  const files = await listFiles(filesRoot, [STAGING]);
  if (files.length) found.push(`${files.length} files in ${filesRoot}`);
  return found;
}

export interface RestoreOptions {
  db: Db;
  filesRoot: string;
  source: string;
  /** Replace what the target holds. */
  force?: boolean;
  /**
   * What a fresh start writes by itself, as documents per collection (the first admin, its id
   * counter, the site secret): a target holding no more than that still counts as empty.
   */
  seeded?: Readonly<Record<string, number>>;
}

export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ manifest: BackupManifest; collections: CollectionReport[]; files: number }> {
  const { db, filesRoot, source } = options;
  const manifest = await verifyBackup(source);
  if (!options.force) {
    const present = await existingData(db, filesRoot, options.seeded ?? {});
    if (present.length)
      throw new BackupError(
        `The target already holds data (${present.join(', ')}); restoring would replace it. ` +
          'Add --force to replace it.',
      );
  }
  const collections = await importDatabase(db, path.join(source, 'dump'));
  let files = 0;
  for (const entry of manifest.files) {
    if (!entry.path.startsWith('files/')) continue;
    const to = path.join(filesRoot, ...entry.path.slice('files/'.length).split('/'));
    await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await fsp.copyFile(path.join(source, ...entry.path.split('/')), to);
    await fsp.chmod(to, 0o600);
    files++;
  }
  return { manifest, collections, files };
}
