/**
 * `npm run quire -- <command>`: admin tasks that work whether the server runs or not. In embedded
 * mode a running server's engine is reached through its socket in DATA_DIR; otherwise the CLI
 * opens DATA_DIR itself. Results go to stdout (so `npm run -s quire -- user:token bob` can be
 * captured), everything else to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import cliProgress from 'cli-progress';
import {
  ConfigError,
  loadConfig,
  ensureIndexes,
  openDatabase,
  type Database,
  exportDatabase,
  importDatabase,
  type CollectionReport,
  BackupError,
  createBackup,
  restoreBackup,
  isApiError,
  createLogger,
  configureFileStorage,
  localStorageFor,
  META_COLLECTION,
} from '../models/platform';
import { createUser, issueTokenFor, setPassword } from '../models/accounts';
import { migrateShowdoc, MigrationRefused, type ShowdocMigrationReport } from '../models/transfer';

const USAGE = `Usage: npm run quire -- <command>

  user:create <name> --password <password> [--admin]   create an account
  user:password <name> <password>                      set a password (revokes its tokens)
  user:token <name>                                    print a fresh user_token for scripts
  db:export <dir>                                      dump the database (mongodump layout)
  db:import <dir>                                      restore a dump (replaces its collections)
  backup <dir>                                         database + uploaded files + manifest, taken
                                                       while serving, into a new or empty folder
  restore <dir> [--force]                              check a backup's manifest, then restore it
                                                       (--force: replace a target holding data)
  import:showdoc <showdoc.db.php> [--uploads <dir>] [--dry-run] [--merge]
                                                       move a ShowDoc site (its SQLite file and
                                                       Public/Uploads folder) into this Quire
  engine:serve --host <address> [--port 27017] [--data <dir>]
                                                       serve the embedded engine of DATA_DIR (or
                                                       --data) over TCP on its own: the database
                                                       host of a scaled install (no authentication:
                                                       a private network only)
`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const note = (text: string) => process.stderr.write(`${text}\n`);

class UsageError extends Error {}

interface Flags {
  host?: string;
  port?: string;
  data?: string;
  password?: string;
  admin?: boolean;
  uploads?: string;
  'dry-run'?: boolean;
  merge?: boolean;
  force?: boolean;
}

/**
 * What a first start writes by itself (the admin account, its id counter, one option row): a
 * target holding no more is still empty for `restore`, so a backup goes into a freshly started
 * installation without --force.
 */
const SEEDED_COLLECTIONS = { user: 1, counters: 1, options: 1, [META_COLLECTION]: 1 };

function quireVersion(): string {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** A bar per table on a terminal; one line per table otherwise (logs, CI, tests). */
function progressReporter(): (table: string, done: number, total: number) => void {
  if (!process.stderr.isTTY)
    return (table, done, total) => {
      if (done === total && total > 0) note(`  ${table}: ${total} rows written`);
    };
  let bar: cliProgress.SingleBar | null = null;
  let current = '';
  return (table, done, total) => {
    if (total === 0) return; // nothing to watch
    if (table !== current || !bar) {
      bar?.stop();
      current = table;
      bar = new cliProgress.SingleBar(
        { format: `  ${table.padEnd(18)} [{bar}] {value}/{total}`, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, done);
    } else bar.update(done);
    if (done === total) {
      bar.stop();
      bar = null;
    }
  };
}

function describeMigration(report: ShowdocMigrationReport): string {
  const lines = report.tables
    .filter((t) => t.rows > 0 || t.duplicates > 0 || t.unusable > 0)
    .map(
      (t) =>
        `  ${t.table}: ${t.rows} rows` +
        (t.duplicates ? ` (${t.duplicates} repeated rows left out)` : '') +
        (t.unusable ? ` (${t.unusable} rows Quire cannot hold left out)` : ''),
    );
  lines.push(`  files: ${report.files.found} found, ${report.files.missing.length} missing`);
  for (const missing of report.files.missing.slice(0, 20)) lines.push(`    missing: ${missing}`);
  if (report.skipped.length)
    lines.push(
      `  not migrated (no Quire counterpart): ${report.skipped.map((s) => `${s.table} (${s.rows})`).join(', ')}`,
    );
  if (report.replacedAdmin)
    lines.push(`  the first-start admin "${report.replacedAdmin}" gives way to ShowDoc's accounts`);
  return lines.join('\n');
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`Missing ${what}.`);
  return value;
}

function describeCollections(reports: CollectionReport[]): string {
  return reports
    .map((r) => `  ${r.name}: ${r.documents} documents, ${r.indexes} indexes`)
    .join('\n');
}

async function run(
  command: string,
  args: string[],
  flags: Flags,
  db: Database,
  dataDir: string,
): Promise<number> {
  switch (command) {
    case 'user:create': {
      const username = need(args[0], 'user name');
      const password = need(flags.password, '--password');
      const user = await createUser({ username, password, admin: flags.admin });
      out(`Created ${flags.admin ? 'admin' : 'user'} ${user.username} (uid ${user.uid}).`);
      return 0;
    }
    case 'user:password': {
      const user = await setPassword(need(args[0], 'user name'), need(args[1], 'password'), {
        revokeTokens: true,
      });
      out(`Password of ${user.username} changed; its login tokens were revoked.`);
      return 0;
    }
    case 'user:token': {
      const { token } = await issueTokenFor(need(args[0], 'user name'));
      out(token);
      return 0;
    }
    case 'db:export': {
      const dir = path.resolve(need(args[0], 'target folder'));
      const reports = await exportDatabase(db.connection.db!, dir);
      out(
        `Exported ${reports.length} collections to ${path.join(dir, db.connection.db!.databaseName)}:`,
      );
      out(describeCollections(reports));
      return 0;
    }
    case 'db:import': {
      const dir = path.resolve(need(args[0], 'dump folder'));
      if (!fs.existsSync(dir)) throw new UsageError(`No such folder: ${dir}`);
      const reports = await importDatabase(db.connection.db!, dir);
      await ensureIndexes(); // indexes Quire's schemas declare, in case the dump predates them
      out(`Imported ${reports.length} collections:`);
      out(describeCollections(reports));
      return 0;
    }
    case 'backup': {
      const dir = path.resolve(need(args[0], 'target folder'));
      const manifest = await createBackup({
        db: db.connection.db!,
        client: db.connection.getClient(),
        filesRoot: localStorageFor(dataDir).root,
        target: dir,
        quireVersion: quireVersion(),
      });
      out(`Backed up to ${dir} (Quire ${manifest.quireVersion}, ${manifest.createdAt}):`);
      out(describeCollections(manifest.collections));
      const uploads = manifest.files.filter((f) => f.path.startsWith('files/'));
      out(`  files: ${uploads.length} (${uploads.reduce((n, f) => n + f.bytes, 0)} bytes)`);
      for (const gone of manifest.missing) out(`  deleted while backing up: ${gone}`);
      return 0;
    }
    case 'restore': {
      const dir = path.resolve(need(args[0], 'backup folder'));
      if (!fs.existsSync(dir)) throw new UsageError(`No such folder: ${dir}`);
      const result = await restoreBackup({
        db: db.connection.db!,
        filesRoot: localStorageFor(dataDir).root,
        source: dir,
        force: flags.force,
        seeded: SEEDED_COLLECTIONS,
      });
      // A backup from before schema versions were recorded: the version this installation had
      // would claim its migrations done; without it the next start runs them (backup first).
      if (!result.collections.some((c) => c.name === META_COLLECTION))
        await db.connection
          .db!.collection(META_COLLECTION)
          .deleteOne({ _id: 'schema_version' as never });
      await ensureIndexes();
      out(
        `Restored the backup of ${result.manifest.createdAt} (Quire ${result.manifest.quireVersion}):`,
      );
      out(describeCollections(result.collections));
      out(`  files: ${result.files}`);
      // Its processes keep what they had read in memory (the read model, counters).
      if (db.via === 'engine-socket')
        note('Restart Quire so every process reads the restored data.');
      return 0;
    }
    case 'import:showdoc': {
      const dbFile = path.resolve(need(args[0], 'path to showdoc.db.php'));
      if (!fs.existsSync(dbFile)) throw new UsageError(`No such file: ${dbFile}`);
      const uploadsDir = flags.uploads ? path.resolve(flags.uploads) : undefined;
      if (uploadsDir && !fs.statSync(uploadsDir, { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`No such folder: ${uploadsDir}`);
      configureFileStorage(localStorageFor(dataDir));
      const dryRun = Boolean(flags['dry-run']);
      try {
        const report = await migrateShowdoc({
          dbFile,
          uploadsDir,
          dryRun,
          merge: flags.merge,
          onProgress: progressReporter(),
        });
        if (dryRun) {
          out(
            `Dry run, nothing written. The import would bring over:\n${describeMigration(report)}`,
          );
          if (report.problems.length === 0) return 0;
          out(`It would be refused:\n  ${report.problems.join('\n  ')}`);
          return 1;
        }
        out(`Imported the ShowDoc site:\n${describeMigration(report)}`);
        return 0;
      } catch (error) {
        if (!(error instanceof MigrationRefused)) throw error;
        note(error.message);
        return 1;
      }
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

async function engineServe(flags: Flags, dataDir: string): Promise<number> {
  const { serveEngine, EngineServeError, DEFAULT_ENGINE_PORT } = await import('./engineServe');
  const port = flags.port === undefined ? DEFAULT_ENGINE_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    note(`--port must be an integer from 0 to 65535.\n\n${USAGE}`);
    return 2;
  }
  try {
    return await serveEngine({
      dataDir: path.resolve(flags.data ?? dataDir),
      host: flags.host ?? '',
      port,
      print: out,
      warn: note,
    });
  } catch (error) {
    if (error instanceof EngineServeError) {
      note(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    note(`Error: ${(error as Error).message}`);
    return 1;
  }
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        password: { type: 'string' },
        admin: { type: 'boolean' },
        uploads: { type: 'string' },
        'dry-run': { type: 'boolean' },
        merge: { type: 'boolean' },
        force: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    note(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...args] = parsed.positionals;
  if (!command || parsed.values.help) {
    (command ? out : note)(USAGE);
    return command ? 0 : 2;
  }

  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      note(error.message);
      return 1;
    }
    throw error;
  }

  // A server, not a one-off task: it opens the directory itself and runs until stopped.
  if (command === 'engine:serve') return engineServe(parsed.values, config.dataDir);

  // Warnings only, and on stderr: stdout carries the command's result.
  const logger = createLogger({
    level: 'warn',
    destination: pino.destination({ dest: 2, sync: true }),
  });
  let db: Database | undefined;
  try {
    db = await openDatabase({
      mongodbUri: config.mongodbUri,
      dataDir: config.dataDir,
      logger,
      role: 'tool',
    });
    note(
      {
        'engine-socket': "(database: the running server's engine, through its socket)",
        'own-engine': `(database: embedded engine in ${config.dataDir})`,
        mongodb: '(database: MongoDB)',
      }[db.via],
    );
    await ensureIndexes();
    return await run(command, args, parsed.values, db, config.dataDir);
  } catch (error) {
    if (error instanceof UsageError) {
      note(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof BackupError) {
      note(error.message);
      return 1;
    }
    note(isApiError(error) ? error.message : `Error: ${(error as Error).message}`);
    return 1;
  } finally {
    await db?.close();
  }
}

// Exit explicitly: a driver timer left behind must not keep an admin command hanging.
process.exit(await main());
