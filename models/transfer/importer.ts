/**
 * `import/auto`: a file into a new item or into an existing one the user manages. The file is
 * read and turned into a plan first (importPlan.ts, importApiSpecs.ts) — a bad file fails there
 * and writes nothing. The plan is then written in one transaction through the ordinary use-case
 * functions (insertItem, saveCatalog, savePage with origin `import`): the same checks, history,
 * change log and events as any save, but all or nothing — events are held until the commit, and a
 * failure half-way leaves no item, catalog or page behind. An import only adds pages, it never
 * overwrites one. Progress goes to the importing user's sockets while it runs.
 */
import { readFile } from 'node:fs/promises';
import { requireAction, type Actor } from '../access';
import { insertItem, MAX_ITEM_NAME } from '../items';
import { KANBAN_ITEM, remapImportedBoard } from '../kanban';
import { MAX_TITLE_LENGTH, Page, savePage } from '../pages';
import {
  assertDepth,
  assertYamlTextDepth,
  connection,
  errors,
  events,
  holdEvents,
  isApiError,
  releaseEvents,
} from '../platform';
import { DEFAULT_ZIP_LIMITS, readZip, type ZipLimits } from './zipArchive';
import {
  isMarkdownPath,
  MAX_CATALOG_DEPTH,
  planFromMarkdownFile,
  planFromMarkdownZip,
  planFromShowdocInfo,
  type ImportPlan,
} from './importPlan';
import { isOpenApi, isPostman, planFromOpenApi, planFromPostman } from './importApiSpecs';
import { catalogForNames, MAX_PAGES_PER_ITEM } from './openApi';

/** Largest single JSON / YAML / Markdown file accepted. */
const MAX_TEXT_BYTES = 20 * 1024 * 1024;
/** Progress is pushed every this many pages (and at the end). */
const PROGRESS_STEP = 10;

export interface ImportInput {
  /** 0 = into a new item. */
  itemId: number;
  fileName: string;
  /** The staged upload. */
  path: string;
  size: number;
  /** The client's id for progress pushes ('' = none). */
  importId?: string;
  /** RunApi: API documents stay RunApi JSON (ShowDoc's `from=runapi`). */
  runApi?: boolean;
  zipLimits?: ZipLimits;
}

export interface ImportResult {
  item_id: number;
  pages: number;
  source: ImportPlan['source'];
  notes: string[];
}

function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.failed('The file is not valid JSON');
  }
  // JSON.parse itself does not recurse; the spec readers after it do.
  assertDepth(value, 'The file');
  if (value && typeof value === 'object' && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw errors.failed('The file is not valid JSON');
}

/** The YAML parser loads with the first YAML import, not when a process starts. */
async function parseYamlDoc(text: string): Promise<Record<string, unknown>> {
  // The YAML composer recurses (seconds, then a RangeError, on a few thousand levels): the text's
  // nesting is bounded before it parses, the value's exactly after.
  assertYamlTextDepth(text, 'The file');
  const { parse: parseYaml } = await import('yaml');
  try {
    const value: unknown = parseYaml(text, { maxAliasCount: 100 });
    assertDepth(value, 'The file');
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch (error) {
    if (isApiError(error)) throw error;
    const message = error instanceof Error ? error.message.split('\n')[0] : '';
    throw errors.failed(`The file is not valid YAML: ${message}`);
  }
  throw errors.failed('The file is not valid YAML');
}

/** A Swagger/OpenAPI document sent as text (JSON or YAML), parsed under the import's limits. */
export async function parseSpecText(raw: string): Promise<Record<string, unknown>> {
  if (raw.length > MAX_TEXT_BYTES) throw errors.fileTooLarge('The document is too large');
  const text = raw.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{') ? parseJson(text) : parseYamlDoc(text);
}

async function readText(path: string, size: number): Promise<string> {
  if (size > MAX_TEXT_BYTES) throw errors.fileTooLarge('The file is too large to import');
  return (await readFile(path)).toString('utf8').replace(/^\uFEFF/, '');
}

async function specPlan(doc: Record<string, unknown>, runApi: boolean): Promise<ImportPlan> {
  if (isOpenApi(doc)) return planFromOpenApi(doc, runApi);
  if (isPostman(doc)) return planFromPostman(doc, runApi);
  throw errors.failed('Unsupported file: not a ShowDoc export, Swagger/OpenAPI or Postman file');
}

/** Reads the upload into a plan (nothing written yet). */
export async function planImport(input: ImportInput): Promise<ImportPlan> {
  const name = input.fileName.toLowerCase();
  const runApi = Boolean(input.runApi);
  if (name.endsWith('.zip')) {
    const entries = await readZip(
      input.path,
      (path) => /(^|\/)(prefix_)?info\.json$/.test(path) || isMarkdownPath(path),
      input.zipLimits ?? DEFAULT_ZIP_LIMITS,
    );
    const info =
      entries.find((e) => e.path === 'info.json') ??
      entries.find((e) => e.path === 'prefix_info.json');
    if (info) return planFromShowdocInfo(info.data.toString('utf8'));
    const markdown = entries.filter((e) => isMarkdownPath(e.path));
    if (!markdown.length) throw errors.failed('The zip holds no Markdown (.md) file');
    return planFromMarkdownZip(
      input.fileName,
      markdown.map((e) => ({ path: e.path, content: e.data.toString('utf8') })),
    );
  }
  if (name.endsWith('.json'))
    return specPlan(parseJson(await readText(input.path, input.size)), runApi);
  if (name.endsWith('.yaml') || name.endsWith('.yml'))
    return specPlan(await parseYamlDoc(await readText(input.path, input.size)), runApi);
  if (name.endsWith('.md') || name.endsWith('.markdown'))
    return planFromMarkdownFile(input.fileName, await readText(input.path, input.size));
  throw errors.failed('Only .zip, .json, .yaml/.yml and .md files can be imported');
}

function checkPlan(plan: ImportPlan): void {
  if (!plan.pages.length) throw errors.failed('The file holds no page to import');
  if (plan.pages.length > MAX_PAGES_PER_ITEM)
    throw errors.refused(`An import may hold at most ${MAX_PAGES_PER_ITEM} pages`);
  for (const page of plan.pages) {
    page.catPath = page.catPath.slice(0, MAX_CATALOG_DEPTH);
    page.title = [...page.title].slice(0, MAX_TITLE_LENGTH).join('');
    // savePage refuses empty text; an empty file still becomes a page.
    if (!page.content) page.content = ' ';
  }
}

/** Imports a file. See the file comment. */
/** Whether the actor may import into the item (0 = a new item): checked before the upload too. */
export async function checkImportTarget(actor: Actor, itemId: number): Promise<void> {
  if (itemId > 0) await requireAction(actor, 'item.import', itemId);
}

export async function importFile(actor: Actor, input: ImportInput): Promise<ImportResult> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await checkImportTarget(actor, input.itemId);
  const plan = await planImport(input);
  checkPlan(plan);
  if (input.itemId > 0) {
    const existing = await Page.countDocuments({ item_id: input.itemId, is_del: 0 });
    if (existing + plan.pages.length > MAX_PAGES_PER_ITEM)
      throw errors.refused(`An item can hold at most ${MAX_PAGES_PER_ITEM} pages`);
  }

  const total = plan.pages.length;
  const progress = (done: number) => {
    if (!input.importId) return;
    events.publish(
      'import.progress',
      { uid: actor.uid, importId: input.importId, done, total },
      { immediate: true },
    );
  };
  let held: Awaited<ReturnType<typeof holdEvents<number>>>['events'] = [];
  let itemId: number;
  try {
    itemId = await connection().transaction(async () => {
      const run = await holdEvents(async () => {
        const target =
          input.itemId > 0
            ? input.itemId
            : (
                await insertItem(actor, {
                  item_name:
                    [...(plan.itemName || input.fileName)].slice(0, MAX_ITEM_NAME).join('') ||
                    'Imported',
                  item_type: plan.itemType,
                  item_description: plan.itemDescription.slice(0, 1000),
                })
              ).item_id;
        if (!(input.itemId > 0))
          events.publish('item.changed', { itemId: target, change: 'created', byUid: actor.uid });
        const holder = { itemId: target, actor };
        let done = 0;
        progress(0);
        const newIds = new Map<string, number>();
        for (const page of plan.pages) {
          const catId = await catalogForNames(holder, page.catPath);
          const saved = await savePage(
            actor,
            {
              pageId: 0,
              itemId: target,
              title: page.title,
              content: page.content,
              remark: page.remark.slice(0, 1000),
              catId,
              sNumber: page.sNumber,
            },
            { origin: 'import' },
          );
          if (page.sourceId) newIds.set(page.sourceId, saved.page.page_id);
          done++;
          if (done % PROGRESS_STEP === 0 || done === total) progress(done);
        }
        // A new kanban item's board names its tasks by their exported ids.
        if (!(input.itemId > 0) && plan.itemType === KANBAN_ITEM)
          await remapImportedBoard(actor, target, newIds);
        return target;
      });
      held = run.events;
      return run.result;
    });
  } catch (error) {
    if (isApiError(error)) throw error;
    throw errors.failed('The import failed and was undone; nothing was written');
  }
  releaseEvents(events, held);
  return { item_id: itemId, pages: total, source: plan.source, notes: plan.notes };
}
