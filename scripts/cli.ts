/**
 * `npm run quire -- <command>`: admin tasks that work whether the server runs or not. In embedded
 * mode a running server's engine is reached through its socket in DATA_DIR; otherwise the CLI
 * opens DATA_DIR itself. Results go to stdout (so `npm run -s quire -- user:token bob` can be
 * captured), everything else to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import {
  ConfigError,
  loadConfig,
  ensureIndexes,
  openDatabase,
  type Database,
  exportDatabase,
  importDatabase,
  type CollectionReport,
  isApiError,
  createLogger,
} from '../models/platform';
import { createUser, issueTokenFor, setPassword } from '../models/accounts';

const USAGE = `Usage: npm run quire -- <command>

  user:create <name> --password <password> [--admin]   create an account
  user:password <name> <password>                      set a password (revokes its tokens)
  user:token <name>                                    print a fresh user_token for scripts
  db:export <dir>                                      dump the database (mongodump layout)
  db:import <dir>                                      restore a dump (replaces its collections)
`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const note = (text: string) => process.stderr.write(`${text}\n`);

class UsageError extends Error {}

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
  flags: { password?: string; admin?: boolean },
  db: Database,
) {
  switch (command) {
    case 'user:create': {
      const username = need(args[0], 'user name');
      const password = need(flags.password, '--password');
      const user = await createUser({ username, password, admin: flags.admin });
      out(`Created ${flags.admin ? 'admin' : 'user'} ${user.username} (uid ${user.uid}).`);
      return;
    }
    case 'user:password': {
      const user = await setPassword(need(args[0], 'user name'), need(args[1], 'password'), {
        revokeTokens: true,
      });
      out(`Password of ${user.username} changed; its login tokens were revoked.`);
      return;
    }
    case 'user:token': {
      const { token } = await issueTokenFor(need(args[0], 'user name'));
      out(token);
      return;
    }
    case 'db:export': {
      const dir = path.resolve(need(args[0], 'target folder'));
      const reports = await exportDatabase(db.connection.db!, dir);
      out(
        `Exported ${reports.length} collections to ${path.join(dir, db.connection.db!.databaseName)}:`,
      );
      out(describeCollections(reports));
      return;
    }
    case 'db:import': {
      const dir = path.resolve(need(args[0], 'dump folder'));
      if (!fs.existsSync(dir)) throw new UsageError(`No such folder: ${dir}`);
      const reports = await importDatabase(db.connection.db!, dir);
      await ensureIndexes(); // indexes Quire's schemas declare, in case the dump predates them
      out(`Imported ${reports.length} collections:`);
      out(describeCollections(reports));
      return;
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
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
    await run(command, args, parsed.values, db);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      note(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    note(isApiError(error) ? error.message : `Error: ${(error as Error).message}`);
    return 1;
  } finally {
    await db?.close();
  }
}

// Exit explicitly: a driver timer left behind must not keep an admin command hanging.
process.exit(await main());
