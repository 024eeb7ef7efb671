/**
 * Reading a ShowDoc site's SQLite database (`Sqlite/showdoc.db.php`) with sql.js (SQLite compiled
 * to WebAssembly: nothing to build, the file is only read). Rows become the documents Quire keeps
 * in the collection of the same name — the schemas mirror ShowDoc's tables — with ids unchanged,
 * so old links, bookmarks and scripts keep pointing at the same items, pages and catalogs.
 *
 * What changes on the way:
 * - page, history and template text: ShowDoc stored it HTML-escaped (`htmlspecialchars`); Quire
 *   stores what the author wrote and escapes on the way out. History rows that ShowDoc's hosted
 *   edition compressed (base64 of zlib) are inflated first.
 * - item visit passwords: ShowDoc kept them in plain text; Quire keeps a bcrypt hash (done by the
 *   caller, which owns the hashing).
 * - user passwords are copied as they are (bcrypt, or ShowDoc's legacy md5 with or without salt):
 *   login verifies both and upgrades a legacy hash at first success.
 * - comma lists (`cat_ids`) become arrays, datetime strings become Unix seconds where Quire keeps
 *   numbers, and the columns an old ShowDoc lacks get ShowDoc's own defaults.
 *
 * Subscriptions and the item change log come over as they are (their rows a Quire cannot hold —
 * no user or object, an action ShowDoc's log never names — are counted and left out), and so do
 * the API workbench's tables (RunApi environments, variables, flows, the parameter library).
 * Tables of features Quire does not have (AI settings, messages) are counted and reported, not
 * migrated.
 */
import fs from 'node:fs';
import type { Database as SqliteDatabase } from 'sql.js';
import { int, text, TABLES, type ImportDoc, type Row, type TableSpec } from './showdocTables';
import { WORKBENCH_TABLES } from './showdocWorkbenchTables';

export { TABLES, type ImportDoc, type TableSpec } from './showdocTables';

const NOT_MIGRATED = [
  'user_token',
  'captcha',
  'page_lock',
  'message',
  'message_content',
  'export_log',
  'user_setting',
  'file_flow',
  'page_comment',
  'page_feedback',
  'item_ai_config',
  'user_ai_token',
  'ai_chat_sessions',
  'ai_chat_messages',
];

export interface SourceTable {
  spec: TableSpec;
  docs: ImportDoc[];
  /** Rows left out because they repeat a unique value of an earlier row (ShowDoc had no index). */
  duplicates: number;
  /** Rows left out because Quire cannot hold them (TableSpec.usable). */
  unusable: number;
  /** The next id ShowDoc would have handed out minus one (sqlite_sequence), or the highest id. */
  highestId: number;
}

export interface ShowdocSource {
  tables: SourceTable[];
  /** Tables with rows that are not migrated, with their row counts. */
  skipped: { table: string; rows: number }[];
}

function tableNames(db: SqliteDatabase): Set<string> {
  const result = db.exec("SELECT name FROM sqlite_master WHERE type = 'table'");
  return new Set((result[0]?.values ?? []).map((v) => String(v[0])));
}

function allRows(db: SqliteDatabase, table: string): Row[] {
  const statement = db.prepare(`SELECT * FROM "${table}"`);
  const rows: Row[] = [];
  try {
    while (statement.step()) rows.push(statement.getAsObject());
  } finally {
    statement.free();
  }
  return rows;
}

function sequences(db: SqliteDatabase, names: Set<string>): Map<string, number> {
  if (!names.has('sqlite_sequence')) return new Map();
  return new Map(allRows(db, 'sqlite_sequence').map((r) => [text(r.name), int(r.seq)]));
}

/** Reads and converts every migrated table of a ShowDoc SQLite file. */
export async function readShowdocDatabase(file: string): Promise<ShowdocSource> {
  const bytes = fs.readFileSync(file);
  if (bytes.subarray(0, 16).toString('latin1') !== 'SQLite format 3\0')
    throw new Error(`${file} is not a SQLite database (ShowDoc keeps it in Sqlite/showdoc.db.php)`);
  // In Node, sql.js reads its .wasm from its own package folder: no network, no bundler. Loaded
  // here, for the rare migration, not in every process at start.
  const { default: initSqlJs } = await import('sql.js');
  const SQL = await initSqlJs();
  const db = new SQL.Database(bytes);
  try {
    const names = tableNames(db);
    if (!names.has('user') || !names.has('item') || !names.has('page'))
      throw new Error(`${file} has no ShowDoc tables (user, item, page)`);
    const seq = sequences(db, names);
    const tables: SourceTable[] = [...TABLES, ...WORKBENCH_TABLES].map((spec) => {
      const rows = names.has(spec.table) ? allRows(db, spec.table) : [];
      const seen = new Map(spec.uniqueFields.map((f) => [f, new Set<unknown>()]));
      const ids = new Set<number>();
      const pairs = new Set<string>();
      const docs: ImportDoc[] = [];
      let duplicates = 0;
      let unusable = 0;
      for (const row of rows) {
        const doc = spec.convert(row);
        if (spec.usable && !spec.usable(doc)) {
          unusable++;
          continue;
        }
        const id = doc[spec.idField] as number;
        const together = (spec.uniqueTogether ?? []).map((fields) =>
          JSON.stringify(fields.map((f) => doc[f])),
        );
        const repeats =
          ids.has(id) ||
          spec.uniqueFields.some((f) => doc[f] !== '' && seen.get(f)!.has(doc[f])) ||
          together.some((key) => pairs.has(key));
        if (repeats) {
          duplicates++;
          continue;
        }
        ids.add(id);
        for (const f of spec.uniqueFields) seen.get(f)!.add(doc[f]);
        for (const key of together) pairs.add(key);
        docs.push(doc);
      }
      let highestId = seq.get(spec.table) ?? 0;
      for (const id of ids) if (id > highestId) highestId = id;
      return { spec, docs, duplicates, unusable, highestId };
    });
    const skipped = NOT_MIGRATED.filter((t) => names.has(t))
      .map((table) => ({
        table,
        rows: int(db.exec(`SELECT COUNT(*) FROM "${table}"`)[0]?.values[0][0]),
      }))
      .filter((t) => t.rows > 0);
    return { tables, skipped };
  } finally {
    db.close();
  }
}
