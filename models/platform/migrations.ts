/**
 * Versioned data migrations, run at start before anything serves (server/quire.ts, by the one
 * process that runs once-per-deployment jobs). The database records its schema version in
 * `quire_meta` (`{_id: 'schema_version', version, history}`); the steps (server/migrations.ts)
 * are numbered 1, 2, … and each is idempotent, so a step interrupted half-way (a crash, a kill)
 * simply runs again at the next start.
 *
 * - A database without the record and without data is a new installation: it is stamped with the
 *   latest version, nothing runs.
 * - A database without the record but with data was written before versions were recorded:
 *   version 0, every step is pending.
 * - Pending steps: a backup first (models/platform/backup.ts, the same as `quire backup`) into
 *   DATA_DIR/backups/, then the steps in order, the record advanced after each.
 * - A version newer than the code knows (a downgrade): refused, nothing touched — the older code
 *   cannot know what the newer steps changed.
 *
 * Several processes starting at once on one database (ROLE=api hosts on MongoDB) take turns
 * through a lock document; the second finds nothing pending.
 */
import path from 'node:path';
import type { Db, MongoClient } from 'mongodb';
import { createBackup } from './backup';
import type { Logger } from './log';

export const META_COLLECTION = 'quire_meta';
const VERSION_ID = 'schema_version';
const LOCK_ID = 'migration_lock';
/** A lock older than this was left by a process that died while migrating: taken over. */
const STALE_LOCK_MS = 30 * 60_000;
const LOCK_POLL_MS = 250;

export interface Migration {
  /** 1, 2, 3 … in order, never reused. */
  id: number;
  name: string;
  /** Must be idempotent: it may run again on data it already changed. */
  up(db: Db): Promise<void>;
}

export class MigrationError extends Error {}

export interface MigrateOptions {
  db: Db;
  client: MongoClient;
  steps: readonly Migration[];
  /** DATA_DIR: the backup goes to DATA_DIR/backups/, the uploads are DATA_DIR/files. */
  dataDir: string;
  filesRoot: string;
  quireVersion: string;
  logger: Logger;
  now?: () => Date;
}

export interface MigrateResult {
  from: number;
  to: number;
  ran: string[];
  /** The backup taken before the steps ran. */
  backup?: string;
}

interface VersionRecord {
  _id: string;
  version: number;
  history?: { id: number; name: string; at: Date; quire: string }[];
}

/** The latest version the given steps know (their highest id). */
export function latestVersion(steps: readonly Migration[]): number {
  return steps.reduce((max, step) => Math.max(max, step.id), 0);
}

function checkSteps(steps: readonly Migration[]): void {
  steps.forEach((step, index) => {
    if (step.id !== index + 1)
      throw new Error(`migration ${step.name} has id ${step.id}; expected ${index + 1}`);
  });
}

async function hasData(db: Db): Promise<boolean> {
  for (const info of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (info.name === META_COLLECTION || info.name.startsWith('system.')) continue;
    if ((await db.collection(info.name).countDocuments({}, { limit: 1 })) > 0) return true;
  }
  return false;
}

function tooNew(version: number, latest: number, quireVersion: string): MigrationError {
  return new MigrationError(
    `the database is at schema version ${version}, written by a newer Quire; this Quire ` +
      `(${quireVersion}) knows versions up to ${latest}. Run that newer Quire again, or restore ` +
      'the backup taken before the upgrade (DATA_DIR/backups) with `npm run quire -- restore`.',
  );
}

/** Runs `work` holding the migration lock (waits while another process holds it). */
async function withLock<T>(db: Db, work: () => Promise<T>, now: () => Date): Promise<T> {
  const meta = db.collection<{ _id: string; at: Date }>(META_COLLECTION);
  for (;;) {
    try {
      await meta.insertOne({ _id: LOCK_ID, at: now() });
      break;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const held = await meta.findOne({ _id: LOCK_ID });
      if (held && now().getTime() - held.at.getTime() > STALE_LOCK_MS)
        await meta.deleteOne({ _id: LOCK_ID, at: held.at });
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  try {
    return await work();
  } finally {
    await meta.deleteOne({ _id: LOCK_ID });
  }
}

/** Brings the database up to the latest version (see the file's comment). */
export async function migrateAtStart(options: MigrateOptions): Promise<MigrateResult> {
  const { db, steps, logger } = options;
  const now = options.now ?? (() => new Date());
  checkSteps(steps);
  const latest = latestVersion(steps);
  const meta = db.collection<VersionRecord>(META_COLLECTION);

  // Checked before the lock: a refused start writes nothing at all.
  const seen = await meta.findOne({ _id: VERSION_ID });
  if (seen && seen.version > latest) throw tooNew(seen.version, latest, options.quireVersion);
  if (seen && seen.version === latest) return { from: latest, to: latest, ran: [] };

  return withLock(
    db,
    async () => {
      const record = await meta.findOne({ _id: VERSION_ID });
      if (record && record.version > latest)
        throw tooNew(record.version, latest, options.quireVersion);
      if (!record && !(await hasData(db))) {
        await meta.insertOne({ _id: VERSION_ID, version: latest, history: [] });
        return { from: latest, to: latest, ran: [] };
      }
      const from = record?.version ?? 0;
      const pending = steps.filter((step) => step.id > from);
      if (pending.length === 0) return { from, to: from, ran: [] };

      const stamp = now().toISOString().replace(/[:.]/g, '-');
      const backup = path.join(options.dataDir, 'backups', `before-schema-${latest}-${stamp}`);
      logger.info(
        { from, to: latest, pending: pending.map((s) => s.name), backup },
        'migrating the database: backing up first',
      );
      await createBackup({
        db,
        client: options.client,
        filesRoot: options.filesRoot,
        target: backup,
        quireVersion: options.quireVersion,
        now,
      });
      const ran: string[] = [];
      for (const step of pending) {
        await step.up(db);
        await meta.updateOne(
          { _id: VERSION_ID },
          {
            $set: { version: step.id },
            $push: {
              history: { id: step.id, name: step.name, at: now(), quire: options.quireVersion },
            },
          },
          { upsert: true },
        );
        ran.push(step.name);
        logger.info({ id: step.id, name: step.name }, 'migration step done');
      }
      return { from, to: latest, ran, backup };
    },
    now,
  );
}

/**
 * For processes that do not migrate (the other workers, a second host): refuses a database newer
 * than the code, as the migrating process does.
 */
export async function checkSchemaVersion(
  db: Db,
  steps: readonly Migration[],
  quireVersion: string,
): Promise<void> {
  const latest = latestVersion(steps);
  const record = await db.collection<VersionRecord>(META_COLLECTION).findOne({ _id: VERSION_ID });
  if (record && record.version > latest) throw tooNew(record.version, latest, quireVersion);
}
