/**
 * The parameter-description library (`paramDescLib/*`, ShowDoc's `parameter_description_entry`):
 * per item, a parameter name + type → description, example, default, enum values, aliases, tags,
 * with a usage count and a quality score (description 0.4, example 0.2, enum 0.1, default 0.1,
 * usage up to 0.2). Entries are `permanent` or `temp` (learnt, awaiting review). Reads need the
 * item's visit right, writes its edit right. `learnFromPage` fills the library from saved API
 * pages (called on page save); a member limited to some catalogs reads (lists, suggestions,
 * stats, export) none of the entries learnt from pages outside them.
 */
import { randomBytes } from 'node:crypto';
import { requireAction, type Actor, type ItemAccess } from '../access';
import { Page, pageVisible } from '../pages';
import { errors, formatNow } from '../platform';
import { ParamDescEntry, type ParamDescEntryDoc } from './schemas';

const NO_ID = { _id: 0 } as const;

function needLogin(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

const missing = (what: string) => errors.operationFailed(what);

export interface EntryInput {
  name?: string;
  type?: string;
  description?: string;
  example?: string;
  defaultValue?: string;
  enumValues?: unknown;
  aliases?: unknown;
  tags?: unknown;
  path?: string;
  source?: string;
  status?: string;
}

const SOURCES = ['manual', 'auto-extracted', 'builtin'];
const STATUSES = ['temp', 'permanent'];

export function qualityScore(e: {
  description?: string;
  example?: string;
  enumValues?: unknown;
  defaultValue?: string;
  usageCount?: number;
}): number {
  let score = 0;
  if (e.description) score += 0.4;
  if (e.example) score += 0.2;
  if (Array.isArray(e.enumValues) && e.enumValues.length > 0) score += 0.1;
  if (e.defaultValue) score += 0.1;
  score += Math.min((e.usageCount ?? 0) * 0.02, 0.2);
  return Math.round(Math.min(score, 1) * 100) / 100;
}

function newId(): string {
  return `${Date.now().toString(16)}${randomBytes(3).toString('hex')}_${1000 + Math.floor(Math.random() * 9000)}`;
}

function parseJsonList(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** ShowDoc's answer shape (camelCase, decoded lists, updatedAt in ms). */
export function presentEntry(row: ParamDescEntryDoc) {
  const updated = Date.parse(row.updated_at.replace(' ', 'T'));
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    example: row.example,
    path: row.path,
    source: row.source,
    status: row.status,
    aliases: parseJsonList(row.aliases),
    tags: parseJsonList(row.tags),
    enumValues: parseJsonList(row.enum_values),
    itemId: row.item_id,
    usageCount: row.usage_count,
    qualityScore: row.quality_score,
    defaultValue: row.default_value,
    createdBy: row.created_by,
    updatedAt: Number.isFinite(updated) ? updated : 0,
  };
}
export type PresentedEntry = ReturnType<typeof presentEntry>;

function listJson(value: unknown): string {
  return JSON.stringify(Array.isArray(value) ? value : []);
}

function rowOf(actor: Actor, itemId: number, e: EntryInput): ParamDescEntryDoc {
  const now = formatNow();
  const source = SOURCES.includes(e.source ?? '') ? e.source! : 'manual';
  const status = STATUSES.includes(e.status ?? '') ? e.status! : 'permanent';
  return {
    id: newId(),
    item_id: itemId,
    name: String(e.name ?? '').trim(),
    type: String(e.type || 'string'),
    description: String(e.description ?? ''),
    example: String(e.example ?? ''),
    default_value: String(e.defaultValue ?? ''),
    enum_values: listJson(e.enumValues),
    aliases: listJson(e.aliases),
    tags: listJson(e.tags),
    path: String(e.path ?? ''),
    source,
    status,
    usage_count: 0,
    quality_score: qualityScore({ ...e, usageCount: 0 }),
    created_by: actor.uid,
    created_at: now,
    updated_at: now,
  };
}

async function entryOrFail(id: string): Promise<ParamDescEntryDoc> {
  const row = id ? await ParamDescEntry.findOne({ id }, NO_ID).lean() : null;
  if (!row) throw missing('Entry not found');
  return row;
}

// ------------------------------------------------------------------ reads

/**
 * The filter that keeps a reader to the entries they may see: for a member limited to some
 * catalogs, none learnt from a page outside them (as the page stands now — moved pages count
 * where they are). Others see the whole library.
 */
async function visibleToActor(
  actor: Actor,
  access: ItemAccess,
  itemId: number,
): Promise<Record<string, unknown>> {
  if (!access.catalogRestriction) return {};
  const sources: number[] = await ParamDescEntry.distinct('source_page_id', {
    item_id: itemId,
    source_page_id: { $gt: 0 },
  });
  if (sources.length === 0) return {};
  const pages = await Page.find(
    { page_id: { $in: sources } },
    { page_id: 1, cat_id: 1, is_draft: 1, author_uid: 1, item_id: 1, _id: 0 },
  ).lean();
  const seen = new Set<number>();
  for (const page of pages)
    if (page.item_id === itemId && (await pageVisible(actor, access, page))) seen.add(page.page_id);
  const hidden = sources.filter((id) => !seen.has(id));
  return hidden.length ? { source_page_id: { $nin: hidden } } : {};
}

export interface EntryQuery {
  itemId: number;
  keyword: string;
  status: string;
  name: string;
  type: string;
  tag: string;
  page: number;
  pageSize: number;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function listEntries(actor: Actor, q: EntryQuery) {
  needLogin(actor);
  if (!(q.itemId > 0)) throw missing('itemId is missing');
  const access = await requireAction(actor, 'workbench.read', q.itemId);
  const filter: Record<string, unknown> = {
    item_id: q.itemId,
    ...(await visibleToActor(actor, access, q.itemId)),
  };
  if (q.keyword) {
    const like = new RegExp(escapeRegex(q.keyword), 'i');
    filter.$or = [{ name: like }, { description: like }];
  }
  if (q.status) filter.status = q.status;
  if (q.name) filter.name = q.name;
  if (q.type) filter.type = q.type;
  if (q.tag) filter.tags = new RegExp(escapeRegex(JSON.stringify(q.tag)));
  const page = Math.max(q.page, 1);
  const pageSize = Math.min(Math.max(q.pageSize, 1), 1000);
  const [total, rows] = await Promise.all([
    ParamDescEntry.countDocuments(filter),
    ParamDescEntry.find(filter, NO_ID)
      .sort({ quality_score: -1, usage_count: -1, updated_at: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .lean(),
  ]);
  return { data: rows.map(presentEntry), total, page, pageSize };
}

export async function libraryStats(actor: Actor, itemId: number) {
  needLogin(actor);
  if (!(itemId > 0)) throw missing('itemId is missing');
  const access = await requireAction(actor, 'workbench.read', itemId);
  const mine = { item_id: itemId, ...(await visibleToActor(actor, access, itemId)) };
  const [totalCount, permanentCount, tempCount, top] = await Promise.all([
    ParamDescEntry.countDocuments(mine),
    ParamDescEntry.countDocuments({ ...mine, status: 'permanent' }),
    ParamDescEntry.countDocuments({ ...mine, status: 'temp' }),
    ParamDescEntry.find(mine, { name: 1, usage_count: 1, _id: 0 })
      .sort({ usage_count: -1 })
      .limit(10)
      .lean(),
  ]);
  return {
    totalCount,
    permanentCount,
    tempCount,
    coverageRate: totalCount > 0 ? Math.round((permanentCount / totalCount) * 10000) / 100 : 0,
    hitRate: 0,
    topFields: top.map((t) => ({ name: t.name, count: t.usage_count })),
  };
}

/** paramDescLib/export: JSON text (ShowDoc's field list) or CSV text. */
export async function exportEntries(actor: Actor, itemId: number, format: string): Promise<string> {
  needLogin(actor);
  if (!(itemId > 0)) throw missing('itemId is missing');
  const access = await requireAction(actor, 'workbench.read', itemId);
  const rows = await ParamDescEntry.find(
    { item_id: itemId, ...(await visibleToActor(actor, access, itemId)) },
    NO_ID,
  )
    .sort({ name: 1 })
    .lean();
  if (format === 'csv') {
    const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const lines = rows.map(
      (r) =>
        `${cell(r.name)},${cell(r.type)},${cell(r.description)},${cell(r.example)},${r.usage_count}`,
    );
    return ['name,type,description,example,usage_count', ...lines].join('\n') + '\n';
  }
  return JSON.stringify(
    rows.map((r) => ({
      name: r.name,
      type: r.type,
      description: r.description,
      example: r.example,
      aliases: parseJsonList(r.aliases),
      tags: parseJsonList(r.tags),
      usageCount: r.usage_count,
    })),
  );
}

/** An entry's identity in its item: ShowDoc's unique (item_id, name, type). */
export function entryKey(entry: { name: string; type: string }): string {
  return `${entry.type}\u0000${entry.name}`;
}

/**
 * Which of these (name, type) pairs the item's library has already. The query names every field
 * of the unique index, so it reads those rows only, however many entries the item holds.
 */
export async function knownEntries(
  itemId: number,
  wanted: Array<{ name: string; type: string }>,
): Promise<Set<string>> {
  if (!wanted.length) return new Set();
  const rows = await ParamDescEntry.find(
    {
      item_id: itemId,
      name: { $in: [...new Set(wanted.map((p) => p.name))] },
      type: { $in: [...new Set(wanted.map((p) => p.type))] },
    },
    { name: 1, type: 1, _id: 0 },
  ).lean();
  return new Set(rows.map(entryKey));
}

// ------------------------------------------------------------------ writes

export async function addEntry(actor: Actor, itemId: number, e: EntryInput) {
  needLogin(actor);
  if (!(itemId > 0) || !e.name || !e.description) throw missing('Required parameters are missing');
  await requireAction(actor, 'workbench.edit', itemId);
  const row = rowOf(actor, itemId, e);
  if (await ParamDescEntry.exists({ item_id: itemId, name: row.name, type: row.type }))
    throw missing('An entry with this name and type already exists');
  await ParamDescEntry.create(row);
  return presentEntry(row);
}

export async function updateEntry(actor: Actor, id: string, e: EntryInput) {
  needLogin(actor);
  if (!id) throw missing('id is missing');
  const entry = await entryOrFail(id);
  await requireAction(actor, 'workbench.edit', entry.item_id);
  const set: Partial<ParamDescEntryDoc> = {};
  for (const key of ['name', 'type', 'description', 'example', 'path'] as const)
    if (e[key] !== undefined) set[key] = String(e[key]);
  if (e.defaultValue !== undefined) set.default_value = String(e.defaultValue);
  if (e.source !== undefined && SOURCES.includes(e.source)) set.source = e.source;
  if (e.status !== undefined && STATUSES.includes(e.status)) set.status = e.status;
  if (e.aliases !== undefined) set.aliases = listJson(e.aliases);
  if (e.tags !== undefined) set.tags = listJson(e.tags);
  if (e.enumValues !== undefined) set.enum_values = listJson(e.enumValues);
  if (Object.keys(set).length === 0) throw missing('Nothing to update');
  const merged = { ...entry, ...set };
  set.quality_score = qualityScore({
    description: merged.description,
    example: merged.example,
    defaultValue: merged.default_value,
    enumValues: parseJsonList(merged.enum_values),
    usageCount: merged.usage_count,
  });
  set.updated_at = formatNow();
  try {
    await ParamDescEntry.updateOne({ id }, { $set: set });
  } catch (error) {
    if ((error as { code?: unknown }).code === 11000)
      throw missing('An entry with this name and type already exists');
    throw error;
  }
  return presentEntry(await entryOrFail(id));
}

/** deleteEntries / promoteTemp: the first id's item decides, the others must share it. */
async function idsOfOneItem(actor: Actor, ids: string[]): Promise<number> {
  needLogin(actor);
  if (ids.length === 0) throw missing('ids is missing');
  const first = await entryOrFail(ids[0]);
  await requireAction(actor, 'workbench.edit', first.item_id);
  return first.item_id;
}

export async function deleteEntries(actor: Actor, ids: string[]): Promise<{ deleted: number }> {
  const itemId = await idsOfOneItem(actor, ids);
  const gone = await ParamDescEntry.deleteMany({ id: { $in: ids }, item_id: itemId });
  if (!gone.deletedCount) throw missing('Delete failed');
  return { deleted: gone.deletedCount };
}

export async function promoteTemp(actor: Actor, ids: string[]): Promise<{ promoted: number }> {
  const itemId = await idsOfOneItem(actor, ids);
  const done = await ParamDescEntry.updateMany(
    { id: { $in: ids }, item_id: itemId, status: 'temp' },
    { $set: { status: 'permanent', updated_at: formatNow() } },
  );
  if (!done.modifiedCount) throw missing('Nothing to promote');
  return { promoted: done.modifiedCount };
}

/** addBatchEntries / confirmImport: entries of items the actor may not edit are skipped. */
export async function addBatch(actor: Actor, entries: unknown[]) {
  needLogin(actor);
  if (entries.length === 0) throw missing('No entries to add');
  const out: PresentedEntry[] = [];
  for (const raw of entries) {
    const e = (raw ?? {}) as EntryInput & { itemId?: unknown };
    const itemId = Number(e.itemId);
    if (!(itemId > 0) || !e.name) continue;
    try {
      await requireAction(actor, 'workbench.edit', itemId);
    } catch {
      continue;
    }
    const row = rowOf(actor, itemId, e);
    try {
      await ParamDescEntry.create(row);
      out.push(presentEntry(row));
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
  }
  return out;
}

/** batchSave: replaces the item's permanent entries with the ones given. */
export async function batchSave(actor: Actor, itemId: number, entries: unknown[]) {
  needLogin(actor);
  if (!(itemId > 0)) throw missing('itemId is missing');
  await requireAction(actor, 'workbench.edit', itemId);
  if (entries.length === 0) throw missing('No entries to save');
  const rows = entries
    .map((raw) => (raw ?? {}) as EntryInput & { usageCount?: unknown })
    .filter((e) => e.name && (e.status ?? 'permanent') !== 'temp')
    .map((e) => {
      const row = rowOf(actor, itemId, { ...e, status: 'permanent' });
      row.usage_count = Math.max(Number(e.usageCount) || 0, 0);
      row.quality_score = qualityScore({ ...e, usageCount: row.usage_count });
      return row;
    });
  await ParamDescEntry.deleteMany({ item_id: itemId, status: 'permanent' });
  const kept: ParamDescEntryDoc[] = [];
  for (const row of rows) {
    try {
      await ParamDescEntry.create(row);
      kept.push(row);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
  }
  return kept.map(presentEntry);
}

export async function updateUsage(actor: Actor, ids: string[]) {
  needLogin(actor);
  if (ids.length === 0) throw missing('ids is missing');
  const rows = await ParamDescEntry.find({ id: { $in: ids } }, NO_ID).lean();
  const first = ids.map((id) => rows.find((r) => r.id === id)).find(Boolean);
  if (!first) throw missing('No valid entry found');
  await requireAction(actor, 'workbench.edit', first.item_id);
  let updated = 0;
  for (const row of rows) {
    if (row.item_id !== first.item_id) continue;
    const usage = row.usage_count + 1;
    await ParamDescEntry.updateOne(
      { id: row.id },
      {
        $set: {
          usage_count: usage,
          quality_score: qualityScore({
            description: row.description,
            example: row.example,
            defaultValue: row.default_value,
            enumValues: parseJsonList(row.enum_values),
            usageCount: usage,
          }),
          updated_at: formatNow(),
        },
      },
    );
    updated += 1;
  }
  const notFound = ids.filter((id) => !rows.some((r) => r.id === id));
  return notFound.length ? { updated, notFound } : { updated };
}

// ------------------------------------------------------------------ import parsing

interface Parsed {
  name: string;
  type: string;
  description: string;
  example?: string;
}

function fieldsOf(obj: unknown, prefix = ''): Parsed[] {
  if (obj === null || typeof obj !== 'object') return [];
  const out: Parsed[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value) && value.length > 0) {
      if (typeof value[0] === 'object' && value[0] !== null) {
        out.push({ name, type: 'array', description: name });
        out.push(...fieldsOf(value[0], `${name}[0]`));
      } else out.push({ name, type: 'array', description: name, example: JSON.stringify(value) });
    } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      out.push({ name, type: 'object', description: name });
      out.push(...fieldsOf(value, name));
    } else {
      const type =
        typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
      out.push({ name, type, description: name, example: value === null ? '' : String(value) });
    }
  }
  return out;
}

function parseImport(format: string, text: string): Parsed[] | null {
  if (format === 'kv')
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes(':'))
      .map((line) => {
        const at = line.indexOf(':');
        return {
          name: line.slice(0, at).trim(),
          type: 'string',
          description: line.slice(at + 1).trim(),
        };
      })
      .filter((p) => p.name);
  if (format === 'json') {
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' ? fieldsOf(value) : null;
    } catch {
      return null;
    }
  }
  if (format === 'ddl') {
    const out: Parsed[] = [];
    for (const line of text.split('\n')) {
      const m = /`(\w+)`\s+\w+.*COMMENT\s+['"]([^'"]+)['"]/i.exec(line.trim());
      if (m) out.push({ name: m[1], type: 'string', description: m[2] });
    }
    return out;
  }
  return null;
}

/** paramDescLib/import: a preview (new vs duplicated), saved later by confirmImport. */
export async function previewImport(actor: Actor, itemId: number, format: string, text: string) {
  needLogin(actor);
  if (!(itemId > 0) || !format || !text) throw missing('Required parameters are missing');
  await requireAction(actor, 'workbench.edit', itemId);
  const parsed = parseImport(format, text);
  if (!parsed || parsed.length === 0) throw missing('The data is not in the given format');
  const taken = await knownEntries(itemId, parsed);
  const present = (p: Parsed) => ({
    id: newId(),
    itemId,
    name: p.name,
    type: p.type,
    description: p.description,
    example: p.example ?? '',
    source: 'manual',
    status: 'permanent',
    usageCount: 0,
    qualityScore: qualityScore(p),
    createdBy: actor.uid,
    updatedAt: Math.floor(Date.now() / 1000),
  });
  const fresh = parsed.filter((p) => !taken.has(entryKey(p)));
  const duplicated = parsed.filter((p) => taken.has(entryKey(p)));
  return { new: fresh.map(present), duplicated: duplicated.map(present) };
}
