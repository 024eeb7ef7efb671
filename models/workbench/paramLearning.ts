/**
 * The parameter library learns from saved API pages: on `page.saved`, the page's parameters
 * (RunApi JSON rows with a `remark`, or the rows of Markdown API-template tables — a header
 * naming the parameter, type and description columns) that have a description and are not in the
 * item's library yet are added as `temp` entries (`source: auto-extracted`), for an editor to
 * review and promote. Entries already there are left as they are: usage counts come from
 * suggestions being used (`paramDescLib/updateUsage`). Each learnt entry names its page
 * (`source_page_id`): members limited to some catalogs see only those learnt from pages they may
 * read (paramDescLib.ts, `visibleToActor`).
 */
import { randomBytes } from 'node:crypto';
import { findLiveItem } from '../access';
import { findLivePage } from '../pages';
import { events, formatNow } from '../platform';
import { entryKey, knownEntries, qualityScore } from './paramDescLib';
import { ParamDescEntry } from './schemas';

export interface LearntParam {
  name: string;
  type: string;
  description: string;
}

const NAME_HEADERS = /^(参数名|参数|字段|字段名|name|parameter|param|field|名称)$/i;
const TYPE_HEADERS = /^(类型|type)$/i;
const DESC_HEADERS = /^(说明|描述|备注|含义|description|desc|remark|comment)$/i;

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

function fromMarkdown(content: string): LearntParam[] {
  const lines = content.split('\n');
  const out: LearntParam[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].includes('|') || !/^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) continue;
    const header = cells(lines[i]);
    const nameAt = header.findIndex((h) => NAME_HEADERS.test(h));
    const descAt = header.findIndex((h) => DESC_HEADERS.test(h));
    if (nameAt < 0 || descAt < 0) continue;
    const typeAt = header.findIndex((h) => TYPE_HEADERS.test(h));
    for (let j = i + 2; j < lines.length && lines[j].includes('|'); j++) {
      const row = cells(lines[j]);
      const name = (row[nameAt] ?? '').replace(/`/g, '');
      if (/^[\w.[\]$-]{1,100}$/.test(name) && row[descAt])
        out.push({
          name,
          type: (typeAt >= 0 && row[typeAt]) || 'string',
          description: row[descAt],
        });
    }
  }
  return out;
}

function fromRunApi(doc: Record<string, unknown>): LearntParam[] {
  const request = (doc.request ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const response = (doc.response ?? {}) as Record<string, unknown>;
  const lists = [
    request.query,
    request.headers,
    request.pathVariable,
    params.urlencoded,
    params.formdata,
    params.jsonDesc,
    response.responseParamsDesc,
  ];
  const out: LearntParam[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const row of list) {
      if (!row || typeof row !== 'object') continue;
      const r = row as Record<string, unknown>;
      const name = typeof r.name === 'string' ? r.name.trim() : '';
      const description = typeof r.remark === 'string' ? r.remark.trim() : '';
      if (name && description && name.length <= 100)
        out.push({
          name,
          type: typeof r.type === 'string' && r.type ? r.type : 'string',
          description,
        });
    }
  }
  return out;
}

/** The described parameters a page documents (first description of a name+type wins). */
export function paramsOfPage(content: string): LearntParam[] {
  const text = content.trim();
  let found: LearntParam[] = [];
  if (text.startsWith('{')) {
    try {
      const doc: unknown = JSON.parse(text);
      if (doc && typeof doc === 'object') found = fromRunApi(doc as Record<string, unknown>);
    } catch {
      found = fromMarkdown(content);
    }
  } else found = fromMarkdown(content);
  const seen = new Set<string>();
  return found.filter((p) => {
    const key = entryKey(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Adds the page's new described parameters to its item's library as temp entries. */
export async function learnFromPage(pageId: number, byUid: number): Promise<number> {
  // The read model: a save keeps the page it wrote there before its listeners run.
  const page = await findLivePage(pageId);
  // A draft is its author's alone: nothing of it goes into the item-wide library.
  if (!page || page.is_draft) return 0;
  // Types as they are stored.
  const params = paramsOfPage(page.page_content ?? '')
    .slice(0, 200)
    .map((p) => ({ ...p, type: p.type.slice(0, 50) }));
  if (params.length === 0) return 0;
  const known = await knownEntries(page.item_id, params);
  const now = formatNow();
  const rows = params
    .filter((p) => !known.has(entryKey(p)))
    .map((p) => ({
      id: `${Date.now().toString(16)}${randomBytes(3).toString('hex')}_${1000 + Math.floor(Math.random() * 9000)}`,
      item_id: page.item_id,
      name: p.name,
      type: p.type,
      description: p.description.slice(0, 1000),
      example: '',
      default_value: '',
      enum_values: '',
      aliases: '',
      tags: '',
      path: '',
      source: 'auto-extracted',
      status: 'temp',
      usage_count: 0,
      quality_score: qualityScore({ description: p.description }),
      created_by: byUid,
      created_at: now,
      updated_at: now,
      source_page_id: pageId,
    }));
  if (!rows.length) return 0;
  // One write for the page's new entries; unordered, so an entry another save learnt first
  // (a duplicate key) leaves the others in.
  let added = rows.length;
  try {
    // Lean: each row is built here with every field of the schema, so mongoose's documents and
    // validation add nothing but work (they were most of a save's learning cost).
    await ParamDescEntry.insertMany(rows, { ordered: false, lean: true });
  } catch (error) {
    const failures = (error as { writeErrors?: { code?: unknown; err?: { code?: unknown } }[] })
      .writeErrors;
    const duplicate = (e: { code?: unknown; err?: { code?: unknown } }) =>
      (e.code ?? e.err?.code) === 11000;
    if (!failures?.length || !failures.every(duplicate)) throw error;
    added -= failures.length;
  }
  return added;
}

/** Item types whose pages hold no Markdown: spreadsheet, whiteboard, kanban (items/schemas/item.ts). */
const NOT_DOCUMENTS = new Set([4, 5, 6]);

/** Learns from every page saved in this process. Returns the stop function. */
export function startParamLearning(
  options: { onError?: (error: unknown) => void } = {},
): () => void {
  return events.subscribe(
    'page.saved',
    async ({ itemId, pageId, byUid, origin }) => {
      // Imports bring whole sites: their pages are learnt when next saved by hand. The pages of
      // a spreadsheet, whiteboard or kanban item (a board operation's saves among them) are JSON
      // that describes no API: not read at all.
      if (origin === 'import') return;
      try {
        const item = await findLiveItem(itemId);
        if (!item || NOT_DOCUMENTS.has(item.item_type)) return;
        await learnFromPage(pageId, byUid);
      } catch (error) {
        options.onError?.(error);
      }
    },
    { localOnly: true },
  );
}
