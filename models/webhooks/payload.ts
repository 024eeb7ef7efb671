/**
 * The body of a generic (`json`) delivery, schema `quire.webhook/1`, and the facts every chat
 * preset renders from it. Built once when the event is queued, batched with the events around it
 * (listener.ts); `delivered_at` is filled in at each attempt.
 *
 * Versioning: fields may be added within `quire.webhook/1`; renaming or removing one, or
 * changing a type, makes `quire.webhook/2`.
 */
import { findLiveItem } from '../access';
import { User } from '../accounts';
import { findLivePages, Page, type PageDoc, PageHistory, versionText } from '../pages';
import { getSiteSettings } from '../settings';
import { lineDiff, type LineDiff } from './digest';
import type { HookEvent } from './schemas';

export const SCHEMA = 'quire.webhook/1';

export interface WebhookPayload {
  schema: typeof SCHEMA;
  event: HookEvent;
  item: { item_id: number; item_name: string };
  page: { page_id: number; page_title: string; cat_id: number } | null;
  actor: { uid: number; username: string; name: string } | null;
  digest: { summary: string; diff: LineDiff | null };
  /** `contract.changed` only: the new version and its changes, breaking first. */
  contract?: WebhookContract;
  links: { item: string; page?: string };
  /** ISO 8601, the time of this attempt. */
  delivered_at: string;
}

export interface WebhookContract {
  version: string;
  previous_version: string;
  breaking: number;
  changes: Array<{ endpoint: string; kind: string; breaking: boolean; text: string }>;
}

export type QueuedPayload = Omit<WebhookPayload, 'delivered_at'>;

const SUMMARIES: Record<HookEvent, string> = {
  'page.created': 'created page',
  'page.updated': 'updated page',
  'page.deleted': 'deleted page',
  'page.restored': 'restored page',
  'catalog.changed': 'changed the catalog of',
  'comment.added': 'commented on page',
  'member.changed': 'changed the members of',
  'item.archived': 'archived',
  'item.transferred': 'transferred',
  'contract.changed': 'synced a new API contract version of',
  ping: 'sent a test message to',
};

export interface PayloadInput {
  event: HookEvent;
  itemId: number;
  pageId?: number;
  byUid: number;
  /**
   * A page save: diff against the version it replaced (`versionId`, else the newest one;
   * `created`: against nothing).
   */
  diff?: { created: boolean; versionId?: number };
  /** Extra words for the summary ("2 members added"). */
  detail?: string;
  contract?: WebhookContract;
}

export async function buildPayload(input: PayloadInput): Promise<QueuedPayload | null> {
  return (await buildPayloads([input]))[0];
}

type PageFacts = Pick<PageDoc, 'page_id' | 'page_title' | 'cat_id' | 'page_content'>;

/** The events' pages: from the read model, deleted ones (page.deleted) from the database. */
async function pagesOf(ids: number[]): Promise<Map<number, PageFacts>> {
  const found = new Map<number, PageFacts>();
  if (!ids.length) return found;
  for (const page of await findLivePages(ids)) found.set(page.page_id, page);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const rows = await Page.find(
      { page_id: { $in: missing } },
      { page_id: 1, page_title: 1, cat_id: 1, page_content: 1, _id: 0 },
    ).lean<PageFacts[]>();
    for (const row of rows) found.set(row.page_id, row);
  }
  return found;
}

async function actorsOf(
  uids: number[],
): Promise<Map<number, NonNullable<WebhookPayload['actor']>>> {
  const found = new Map<number, NonNullable<WebhookPayload['actor']>>();
  if (!uids.length) return found;
  const rows = await User.find(
    { uid: { $in: uids } },
    { uid: 1, username: 1, name: 1, _id: 0 },
  ).lean();
  for (const user of rows)
    found.set(user.uid, { uid: user.uid, username: user.username, name: user.name ?? '' });
  return found;
}

/** A save's text before and after it ('after' undefined: the page as it is now). */
interface SaveTexts {
  before: string;
  after?: string;
}

/**
 * The text each updated page had before and after its save. Before: the version that very save
 * stored (`versionId`). After: the next version of the page, stored by the save after it, when
 * one came already (saves batched together, or a save while the batch was written); else the
 * page now. One read for the whole batch: the page's versions from the batch's oldest on.
 * Without `versionId` (an event from an older process): the newest version, and the page now.
 */
async function textsAround(inputs: PayloadInput[]): Promise<Map<PayloadInput, SaveTexts>> {
  const out = new Map<PayloadInput, SaveTexts>();
  const updates = inputs.filter((i) => i.diff && !i.diff.created && i.pageId);
  const byId = updates.filter((i) => i.diff?.versionId);
  if (byId.length) {
    const rows = await PageHistory.find(
      {
        page_id: { $in: [...new Set(byId.map((i) => i.pageId!))] },
        page_history_id: { $gte: Math.min(...byId.map((i) => i.diff!.versionId!)) },
      },
      { _id: 0, page_history_id: 1, page_id: 1, page_content: 1, page_content_z: 1 },
    )
      // In the order the page writes numbered them (ids are taken before the write).
      .sort({ version_seq: 1, page_history_id: 1 })
      .lean();
    const texts = new Map<number, string>();
    const textOf = (row: (typeof rows)[number]) => {
      let text = texts.get(row.page_history_id);
      if (text === undefined) texts.set(row.page_history_id, (text = versionText(row)));
      return text;
    };
    const byPage = new Map<number, typeof rows>();
    for (const row of rows) {
      const list = byPage.get(row.page_id) ?? [];
      list.push(row);
      byPage.set(row.page_id, list);
    }
    for (const input of byId) {
      const id = input.diff!.versionId!;
      const versions = byPage.get(input.pageId!) ?? [];
      const at = versions.findIndex((row) => row.page_history_id === id);
      if (at < 0) continue;
      const next = versions[at + 1];
      out.set(input, { before: textOf(versions[at]), ...(next ? { after: textOf(next) } : {}) });
    }
  }
  for (const input of updates) {
    if (out.has(input)) continue;
    const previous = await PageHistory.findOne({ page_id: input.pageId }, { _id: 0 })
      .sort({ page_history_id: -1 })
      .lean();
    out.set(input, { before: previous ? versionText(previous) : '' });
  }
  return out;
}

/**
 * Payloads of a batch of events (null: the item is gone), in their order. Each kind of fact is
 * read once for the whole batch — pages, actors, replaced versions — so a stream of saves costs
 * the delivery queue a few reads per batch, not per save.
 */
export async function buildPayloads(inputs: PayloadInput[]): Promise<Array<QueuedPayload | null>> {
  if (!inputs.length) return [];
  const unique = (list: number[]) => [...new Set(list.filter((n) => n > 0))];
  const itemIds = unique(inputs.map((i) => i.itemId));
  const [settings, items, pages, actors, around] = await Promise.all([
    getSiteSettings(),
    Promise.all(itemIds.map(async (id) => [id, await findLiveItem(id)] as const)).then(
      (list) => new Map(list),
    ),
    pagesOf(unique(inputs.map((i) => i.pageId ?? 0))),
    actorsOf(unique(inputs.map((i) => i.byUid))),
    textsAround(inputs),
  ]);
  const base = settings.siteUrl.replace(/\/+$/, '');
  return inputs.map((input) => {
    const item = items.get(input.itemId);
    if (!item) return null;
    const page = input.pageId ? (pages.get(input.pageId) ?? null) : null;
    const actor = actors.get(input.byUid) ?? null;
    const who = actor ? actor.name || actor.username : 'Someone';
    const target = page ? page.page_title : item.item_name;
    const where = page ? ` in ${item.item_name}` : '';
    const texts = around.get(input);
    const diff =
      input.diff && page
        ? lineDiff(texts?.before ?? '', texts?.after ?? page.page_content ?? '')
        : null;
    const counted = diff ? ` (+${diff.added} −${diff.removed} lines)` : '';
    const summary =
      `${who} ${SUMMARIES[input.event]} “${target}”${where}${counted}` +
      (input.detail ? `: ${input.detail}` : '');
    const itemLink = `${base}/${item.item_id}`;
    return {
      schema: SCHEMA,
      event: input.event,
      item: { item_id: item.item_id, item_name: item.item_name },
      page: page
        ? { page_id: page.page_id, page_title: page.page_title ?? '', cat_id: page.cat_id ?? 0 }
        : null,
      actor,
      digest: { summary, diff },
      ...(input.contract ? { contract: input.contract } : {}),
      links: page ? { item: itemLink, page: `${itemLink}/${page.page_id}` } : { item: itemLink },
    };
  });
}
