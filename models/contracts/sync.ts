/**
 * Applying a new version of an item's API contract. The document goes through the same import
 * code as a file (planFromOpenApi: one page per operation, catalogs by tag) and is compared with
 * the version stored last (diff.ts). Then, in one transaction, each operation's page is updated in
 * place — an ordinary page version in the history, saved by the follower with the agent label
 * "API contract sync", so the change is reviewable and can be restored — or created when new;
 * a page whose endpoint left the contract stays (its consumers need to read what went) and is
 * marked. After the commit: the pages' marks ("changed in v1.4 — breaking"), the mocks of the
 * changed operations, ONE notice to the subscribers of the changed pages with the digest, and
 * `contract.changed` on the bus (webhooks deliver it).
 */
import { createHash } from 'node:crypto';
import { type Actor, findLiveItem } from '../access';
import { saveMock } from '../mocks';
import { createReminders, pageSubscriberUids } from '../notices';
import { MAX_TITLE_LENGTH, Page, savePage } from '../pages';
import {
  connection,
  errors,
  events,
  formatNow,
  holdEvents,
  isApiError,
  releaseEvents,
} from '../platform';
import {
  catalogForNames,
  isOpenApi,
  MAX_PAGES_PER_ITEM,
  planFromOpenApi,
  type PlannedPage,
} from '../transfer';
import { compareContracts, type ContractChange, toOpenApi3 } from './diff';
import {
  ApiContract,
  type ApiContractDoc,
  ApiContractMark,
  type CheckStatus,
  type PageMapEntry,
} from './schemas';

/** The history's and the change log's word for who wrote a synced version. */
export const SYNC_AGENT = { label: 'API contract sync', tokenId: 0 };
/** Largest stored document. */
export const MAX_SPEC_BYTES = 8 * 1024 * 1024;
/** Changes quoted in the notice (its text is bounded by the notice centre). */
const NOTICE_CHANGES = 8;

type Json = Record<string, unknown>;

export interface SyncResult {
  status: CheckStatus;
  version: string;
  changes: ContractChange[];
  pages_created: number;
  pages_updated: number;
}

const endpointKey = (page: PlannedPage) =>
  page.endpoint ? `${page.endpoint.method.toUpperCase()} ${page.endpoint.path}` : '';

/** A templated path (`/pet/{petId}`) as a mock regex path; plain paths as they are. */
export function mockPathOf(path: string): string {
  if (!/\{[^}]*\}/.test(path)) return path;
  const parts = path.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `~${parts.join('[^/]+')}`;
}

/** Versions read as "v1.4.0"; a document without one is counted ("#3"). */
function versionLabel(doc: Json, count: number): string {
  const info = doc.info && typeof doc.info === 'object' ? (doc.info as Json) : {};
  const raw = typeof info.version === 'string' ? info.version.trim() : '';
  return raw ? raw.slice(0, 40) : `#${count}`;
}

interface Written {
  map: PageMapEntry[];
  created: number;
  updated: number;
}

/** Writes the plan's pages (see the file comment); inside the caller's transaction. */
async function writePages(
  actor: Actor,
  itemId: number,
  plan: PlannedPage[],
  previous: PageMapEntry[],
): Promise<Written> {
  const holder = { itemId, actor };
  const out: Written = { map: [], created: 0, updated: 0 };
  const known = new Map(previous.map((e) => [`${e.endpoint}|${e.cat}`, e.page_id]));
  for (const planned of plan) {
    const endpoint = endpointKey(planned);
    const cat = planned.catPath.join('/');
    const title = [...planned.title].slice(0, MAX_TITLE_LENGTH).join('') || endpoint;
    const content = planned.content || ' ';
    const catId = await catalogForNames(holder, planned.catPath);
    const mapped = known.get(`${endpoint}|${cat}`);
    let page = mapped
      ? await Page.findOne(
          { page_id: mapped, item_id: itemId, is_del: 0 },
          { page_id: 1, page_title: 1, page_content: 1, _id: 0 },
        ).lean()
      : null;
    // The first sync adopts the pages a file import of the same document made.
    page ??= await Page.findOne(
      { item_id: itemId, cat_id: catId, page_title: title, is_del: 0 },
      { page_id: 1, page_title: 1, page_content: 1, _id: 0 },
    ).lean();
    if (page && page.page_content === content && page.page_title === title) {
      out.map.push({ endpoint, cat, page_id: page.page_id });
      continue;
    }
    const saved = await savePage(
      actor,
      { pageId: page?.page_id ?? 0, itemId, title, content, catId, sNumber: planned.sNumber },
      { origin: 'import', agent: SYNC_AGENT },
    );
    if (page) out.updated++;
    else out.created++;
    out.map.push({ endpoint, cat, page_id: saved.page.page_id });
  }
  return out;
}

/** Pages per endpoint, the new map first, then the old one (a removed endpoint's page). */
function pagesByEndpoint(map: PageMapEntry[], previous: PageMapEntry[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const e of [...map, ...previous]) {
    const list = out.get(e.endpoint) ?? [];
    if (!list.includes(e.page_id)) list.push(e.page_id);
    out.set(e.endpoint, list);
  }
  return out;
}

async function writeMarks(
  itemId: number,
  version: string,
  changes: ContractChange[],
  pages: Map<string, number[]>,
): Promise<number[]> {
  const perPage = new Map<number, ContractChange[]>();
  for (const change of changes)
    for (const pageId of pages.get(change.endpoint) ?? [])
      perPage.set(pageId, [...(perPage.get(pageId) ?? []), change]);
  const at = formatNow();
  await Promise.all(
    [...perPage].map(([pageId, list]) =>
      ApiContractMark.updateOne(
        { page_id: pageId },
        {
          $set: {
            item_id: itemId,
            page_id: pageId,
            version,
            breaking: list.some((c) => c.breaking) ? 1 : 0,
            changes: list,
            at,
          },
        },
        { upsert: true },
      ),
    ),
  );
  return [...perPage.keys()];
}

/** Mocks of the operations that changed or are new (all of them on the first version). */
async function refreshMocks(
  actor: Actor,
  plan: PlannedPage[],
  map: PageMapEntry[],
  changed: Set<string> | null,
): Promise<void> {
  for (const planned of plan) {
    const endpoint = endpointKey(planned);
    const example = planned.endpoint?.responseExample ?? '';
    if (!example || (changed && !changed.has(endpoint))) continue;
    const entry = map.find((e) => e.endpoint === endpoint && e.cat === planned.catPath.join('/'));
    if (!entry) continue;
    try {
      await saveMock(actor, {
        pageId: entry.page_id,
        template: example,
        path: mockPathOf(planned.endpoint!.path),
      });
    } catch (error) {
      // An example that is no valid mock template leaves that page's mock as it was.
      if (!isApiError(error)) throw error;
    }
  }
}

function digestText(name: string, from: string, version: string, changes: ContractChange[]) {
  const breaking = changes.filter((c) => c.breaking).length;
  const head =
    `The API contract of “${name}” changed (${from || '—'} → ${version}): ` +
    `${breaking} breaking, ${changes.length - breaking} non-breaking.`;
  const lines = changes
    .slice(0, NOTICE_CHANGES)
    .map((c) => `${c.breaking ? '[breaking] ' : ''}${c.endpoint}: ${c.text}`);
  const more =
    changes.length > NOTICE_CHANGES ? [`… and ${changes.length - NOTICE_CHANGES} more`] : [];
  return [head, ...lines, ...more].join('\n');
}

/**
 * Applies `raw` (a parsed Swagger/OpenAPI document) as the contract's next version, written as
 * `actor`. The caller holds the contract's lease.
 */
export async function applySpec(
  contract: ApiContractDoc,
  raw: Json,
  actor: Actor,
  source: 'url' | 'push',
): Promise<SyncResult> {
  if (!isOpenApi(raw)) throw errors.failed('The document is not a Swagger/OpenAPI document');
  const item = await findLiveItem(contract.item_id);
  if (!item) throw errors.itemNotFound('The item does not exist or was deleted');
  const text = JSON.stringify(raw);
  if (Buffer.byteLength(text) > MAX_SPEC_BYTES)
    throw errors.fileTooLarge('The API document is too large');
  const hash = createHash('sha256').update(text).digest('hex');
  const now = formatNow();
  const count = contract.version_count + (hash === contract.spec_hash ? 0 : 1);
  const version = versionLabel(raw, count);
  if (hash === contract.spec_hash) {
    await ApiContract.updateOne(
      { id: contract.id },
      {
        $set: { last_check_at: now, last_status: 'unchanged', last_error: '', last_source: source },
      },
    );
    return { status: 'unchanged', version, changes: [], pages_created: 0, pages_updated: 0 };
  }
  const after = await toOpenApi3(raw);
  const before = contract.spec_text
    ? await toOpenApi3(JSON.parse(contract.spec_text) as Json)
    : null;
  const changes = before ? await compareContracts(before, after) : [];
  const plan = (await planFromOpenApi(raw, item.item_type === 3)).pages;
  if (plan.length > MAX_PAGES_PER_ITEM)
    throw errors.refused(`An import may hold at most ${MAX_PAGES_PER_ITEM} pages`);

  const status: CheckStatus = before ? (changes.length ? 'changed' : 'unchanged') : 'first';
  // The pages, their marks and mocks and the stored version commit together: a reader told of a
  // saved page finds its mark, and a failure leaves the last version to compare the next one with.
  const commit = async (): Promise<{ written: Written; marked: number[] }> => {
    const written = await writePages(actor, contract.item_id, plan, contract.page_map ?? []);
    const pages = pagesByEndpoint(written.map, contract.page_map ?? []);
    const marked = await writeMarks(contract.item_id, version, changes, pages);
    await refreshMocks(
      actor,
      plan,
      written.map,
      before ? new Set(changes.map((c) => c.endpoint)) : null,
    );
    await ApiContract.updateOne(
      { id: contract.id },
      {
        $set: {
          spec_text: text,
          spec_hash: hash,
          spec_version: version,
          version_count: count,
          page_map: written.map,
          last_check_at: now,
          last_status: status,
          last_error: '',
          last_source: source,
          ...(changes.length
            ? { last_changed_at: now, last_diff: changes, last_diff_from: contract.spec_version }
            : {}),
          updated_at: now,
        },
      },
    );
    return { written, marked };
  };
  let held: Awaited<ReturnType<typeof holdEvents<unknown>>>['events'] = [];
  let outcome: { written: Written; marked: number[] };
  try {
    outcome = await connection().transaction(async () => {
      const run = await holdEvents(commit);
      held = run.events;
      return run.result;
    });
  } catch (error) {
    if (isApiError(error)) throw error;
    throw errors.failed('The API pages could not be updated; nothing was written');
  }
  releaseEvents(events, held);
  const { written, marked } = outcome;
  if (changes.length) {
    const subscribers = new Set<number>();
    for (const pageId of marked)
      for (const uid of await pageSubscriberUids(pageId))
        if (uid !== actor.uid) subscribers.add(uid);
    await createReminders({
      fromUid: actor.uid,
      fromName: SYNC_AGENT.label,
      actionType: 'contract',
      objectType: 'item',
      objectId: contract.item_id,
      text: digestText(item.item_name, contract.spec_version, version, changes),
      toUids: [...subscribers],
    });
    events.publish('contract.changed', {
      itemId: contract.item_id,
      byUid: actor.uid,
      version,
      breaking: changes.filter((c) => c.breaking).length,
      changes: changes.length,
    });
  }
  return {
    status,
    version,
    changes,
    pages_created: written.created,
    pages_updated: written.updated,
  };
}
