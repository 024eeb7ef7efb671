/**
 * Moving a ShowDoc site into Quire (`npm run quire -- import:showdoc`). Everything is read,
 * converted and checked before anything is written; then the files are copied into the storage
 * and every row is written in ONE transaction, so a failure leaves Quire as it was (the copied
 * files are removed again). Ids are kept and the id counters moved past them afterwards.
 *
 * Into an empty Quire only: data there already (any item, any account but the first-start admin)
 * refuses the run unless `merge` is set, and even then any clashing id or unique value (user name,
 * file sign, api_key, share key…) is reported and nothing is written — a migration never
 * overwrites. The first-start admin `showdoc` of a fresh Quire gives way to ShowDoc's own accounts
 * when they take its uid or name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Model } from 'mongoose';
import { connection, events, fileStorage, newStorageKey, raiseCounter } from '../platform';
import { hashItemPassword } from '../access';
import { ADMIN_GROUP, FIRST_ADMIN_USERNAME, User, UserToken } from '../accounts';
import { Item, ItemChangeLog, ItemGroup, ItemSort, ItemStar, ItemToken, ItemTop } from '../items';
import { Catalog } from '../catalogs';
import { packVersionText, Page, PageHistory, Recycle, SinglePage } from '../pages';
import { ItemMember, Team, TeamItem, TeamItemMember, TeamMember } from '../members';
import { Template, TemplateItem } from '../templates';
import { detectKind, FilePage, KIND_MIME, SNIFF_BYTES, UploadFile } from '../files';
import { KanbanActivity } from '../kanban';
import { Mock } from '../mocks';
import { Subscription } from '../notices';
import {
  ItemVariable,
  ParamDescEntry,
  RunapiDbConfig,
  RunapiEnv,
  RunapiEnvSelectd,
  RunapiFlow,
  RunapiFlowPage,
  RunapiGlobalParam,
} from '../workbench';
import { readShowdocDatabase, type ImportDoc, type SourceTable } from './showdocSource';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one loop writes every collection
const MODELS: Record<string, Model<any>> = {
  User,
  Item,
  Catalog,
  Page,
  PageHistory,
  ItemMember,
  Team,
  TeamMember,
  TeamItem,
  TeamItemMember,
  ItemGroup,
  ItemSort,
  ItemTop,
  ItemStar,
  Template,
  TemplateItem,
  UploadFile,
  FilePage,
  Mock,
  SinglePage,
  ItemToken,
  Recycle,
  Subscription,
  ItemChangeLog,
  KanbanActivity,
  RunapiEnv,
  RunapiEnvSelectd,
  RunapiGlobalParam,
  RunapiDbConfig,
  ItemVariable,
  RunapiFlow,
  RunapiFlowPage,
  ParamDescEntry,
};

const BATCH = 500;
const SHOWN_CLASHES = 10;
const SHOWN_INVALID = 5;

export interface ShowdocMigrationOptions {
  /** ShowDoc's `Sqlite/showdoc.db.php`. */
  dbFile: string;
  /** ShowDoc's `Public/Uploads` folder; without it attachment rows come over without their bytes. */
  uploadsDir?: string;
  dryRun?: boolean;
  merge?: boolean;
  /** Called as each table is written (and once per table with 0 before). */
  onProgress?: (table: string, done: number, total: number) => void;
}

export interface ShowdocMigrationReport {
  tables: { table: string; rows: number; duplicates: number; unusable: number }[];
  files: { found: number; missing: string[] };
  /** ShowDoc tables with rows that Quire has no place for. */
  skipped: { table: string; rows: number }[];
  /** The first-start admin account that ShowDoc's accounts replaced, if any. */
  replacedAdmin: string | null;
  /** Why the run was (or, in a dry run, would be) refused. */
  problems: string[];
  written: boolean;
}

export class MigrationRefused extends Error {
  constructor(readonly problems: string[]) {
    super(`Nothing was imported:\n  ${problems.join('\n  ')}`);
  }
}

interface FilePlan {
  doc: ImportDoc;
  source: string;
  /** The path below Public/Uploads, as it appears in old links. */
  relative: string;
}

/** `…/Public/Uploads/2020-01-01/x.png?v=1` → `2020-01-01/x.png` (ShowDoc's own rule for deleting). */
function uploadsPath(realUrl: string): string | null {
  const at = realUrl.indexOf('/Public/Uploads/');
  if (at < 0) return null;
  const rest = realUrl.slice(at + '/Public/Uploads/'.length).split(/[?#]/)[0];
  return rest ? safeDecode(rest) : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function locateFiles(
  files: ImportDoc[],
  uploadsDir: string | undefined,
): Promise<{ found: FilePlan[]; missing: string[] }> {
  const found: FilePlan[] = [];
  const missing: string[] = [];
  const root = uploadsDir ? path.resolve(uploadsDir) : null;
  for (const doc of files) {
    const relative = uploadsPath(String(doc.real_url));
    const source = root && relative ? path.resolve(root, relative) : null;
    // A path that climbs out of the uploads folder is treated as missing, never read.
    const inside = source !== null && source.startsWith(root + path.sep);
    const stat = inside ? await fsp.stat(source).catch(() => null) : null;
    if (source && relative && stat?.isFile()) found.push({ doc, source, relative });
    else missing.push(`${String(doc.display_name)} (file_id ${String(doc.file_id)})`);
  }
  return { found, missing };
}

/** What is in Quire already that the import may not touch; the admin it may replace. */
async function checkTarget(
  tables: SourceTable[],
  merge: boolean,
): Promise<{ problems: string[]; replacedAdmin: { uid: number; username: string } | null }> {
  const problems: string[] = [];
  let replacedAdmin: { uid: number; username: string } | null = null;
  const users = await User.find({}, { uid: 1, username: 1, groupid: 1 }).limit(2).lean();
  const items = await Item.countDocuments();
  const onlyFirstAdmin =
    items === 0 &&
    users.length === 1 &&
    users[0].username === FIRST_ADMIN_USERNAME &&
    users[0].groupid === ADMIN_GROUP;
  if (!merge && (items > 0 || users.length > 1 || (users.length === 1 && !onlyFirstAdmin)))
    problems.push(
      'This Quire already has items or accounts; use --merge to add the ShowDoc site to them.',
    );
  const imported = tables.find((t) => t.spec.table === 'user')!.docs;
  if (!merge && onlyFirstAdmin) {
    const admin = users[0];
    if (imported.some((u) => u.uid === admin.uid || u.username === admin.username))
      replacedAdmin = { uid: admin.uid, username: admin.username };
  }

  for (const { spec, docs } of tables) {
    if (docs.length === 0) continue;
    const model = MODELS[spec.model];
    for (const field of [spec.idField, ...spec.uniqueFields]) {
      const values = docs.map((d) => d[field]).filter((v) => v !== '');
      const filter: Record<string, unknown> = { [field]: { $in: values } };
      if (spec.table === 'user' && replacedAdmin) filter.uid = { $ne: replacedAdmin.uid };
      const clashes = await model
        .find(filter, { [field]: 1 })
        .limit(SHOWN_CLASHES)
        .lean<ImportDoc[]>();
      if (clashes.length > 0)
        problems.push(
          `${spec.table}.${field} already used in Quire: ${clashes.map((c) => String(c[field])).join(', ')}`,
        );
    }
  }
  return { problems, replacedAdmin };
}

/** Rows Quire's schemas refuse, found before anything is written (not half-way through). */
async function invalidRows(tables: SourceTable[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { spec, docs } of tables) {
    let shown = 0;
    for (const doc of docs) {
      const error = await new MODELS[spec.model](doc).validate().then(
        () => null,
        (e: Error) => e,
      );
      if (!error) continue;
      if (shown++ < SHOWN_INVALID)
        problems.push(
          `${spec.table} row ${spec.idField}=${String(doc[spec.idField])}: ${error.message}`,
        );
    }
    if (shown > SHOWN_INVALID)
      problems.push(`${spec.table}: ${shown - SHOWN_INVALID} more invalid rows`);
  }
  return problems;
}

/** Old `/Public/Uploads/…` links in page text now point at the file by its sign. */
function rewriteUploadLinks(docs: ImportDoc[], signs: Map<string, string>): void {
  if (signs.size === 0) return;
  const pattern = /(?:https?:\/\/[^\s"'()<>]*?)?\/Public\/Uploads\/([^\s"'()<>?#]+)/g;
  for (const doc of docs) {
    const content = String(doc.page_content);
    if (!content.includes('/Public/Uploads/')) continue;
    doc.page_content = content.replace(pattern, (whole, rel: string) => {
      const sign = signs.get(safeDecode(rel));
      return sign ? `/server/index.php?s=/api/attachment/visitFile&sign=${sign}` : whole;
    });
  }
}

async function copyFiles(found: FilePlan[]): Promise<string[]> {
  const storage = fileStorage();
  const staging = await storage.stagingDir();
  const keys: string[] = [];
  try {
    for (const { doc, source } of found) {
      const handle = await fsp.open(source, 'r');
      let head: Buffer;
      try {
        const buffer = Buffer.alloc(SNIFF_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
        head = buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
      // Served by what the bytes are, as for any upload (ShowDoc kept the client's claim).
      const kind = detectKind(head);
      doc.file_type = kind ? KIND_MIME[kind] : 'application/octet-stream';
      doc.file_size = (await fsp.stat(source)).size;
      const staged = path.join(staging, `showdoc-${randomBytes(12).toString('hex')}`);
      await fsp.copyFile(source, staged);
      const key = newStorageKey(new Date(Number(doc.addtime) * 1000 || Date.now()));
      await storage.putFile(key, staged);
      keys.push(key);
      doc.storage_key = key;
    }
    return keys;
  } catch (error) {
    await removeFiles(keys);
    throw error;
  }
}

async function removeFiles(keys: string[]): Promise<void> {
  const storage = fileStorage();
  for (const key of keys) await storage.remove(key).catch(() => undefined);
}

export async function migrateShowdoc(
  options: ShowdocMigrationOptions,
): Promise<ShowdocMigrationReport> {
  const source = await readShowdocDatabase(options.dbFile);
  const { tables } = source;
  const docsOf = (table: string) => tables.find((t) => t.spec.table === table)!.docs;
  const files = await locateFiles(docsOf('upload_file'), options.uploadsDir);
  const { problems, replacedAdmin } = await checkTarget(tables, Boolean(options.merge));
  problems.push(...(await invalidRows(tables)));
  const report: ShowdocMigrationReport = {
    tables: tables.map((t) => ({
      table: t.spec.table,
      rows: t.docs.length,
      duplicates: t.duplicates,
      unusable: t.unusable,
    })),
    files: { found: files.found.length, missing: files.missing },
    skipped: source.skipped,
    replacedAdmin: replacedAdmin?.username ?? null,
    problems,
    written: false,
  };
  if (options.dryRun) return report;
  if (problems.length > 0) throw new MigrationRefused(problems);

  for (const item of docsOf('item'))
    if (item.password) item.password = await hashItemPassword(String(item.password));
  const signs = new Map(files.found.map((f) => [f.relative, String(f.doc.sign)]));
  rewriteUploadLinks(docsOf('page'), signs);
  rewriteUploadLinks(docsOf('page_history'), signs);
  // Versions are stored as Quire's own saves store them (models/pages/versionText.ts).
  for (const doc of docsOf('page_history'))
    Object.assign(doc, packVersionText(String(doc.page_content ?? '')));

  const keys = await copyFiles(files.found);
  try {
    await connection().transaction(async () => {
      if (replacedAdmin) {
        await User.deleteOne({ uid: replacedAdmin.uid });
        await UserToken.deleteMany({ uid: replacedAdmin.uid });
      }
      for (const { spec, docs } of tables) {
        options.onProgress?.(spec.table, 0, docs.length);
        for (let start = 0; start < docs.length; start += BATCH) {
          await MODELS[spec.model].insertMany(docs.slice(start, start + BATCH), { ordered: true });
          options.onProgress?.(spec.table, Math.min(start + BATCH, docs.length), docs.length);
        }
      }
    });
  } catch (error) {
    await removeFiles(keys);
    throw error;
  }
  for (const { spec, highestId } of tables)
    if (highestId > 0) await raiseCounter(spec.counter, highestId);
  // Every process's read model held the data this migration replaced (an admin account, ids).
  events.publish('data.replaced', {});
  report.written = true;
  return report;
}
