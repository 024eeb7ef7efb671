/**
 * The body of a generic (`json`) delivery, schema `quire.webhook/1`, and the facts every chat
 * preset renders from it. Built once when the event is queued (the digest needs the page as it
 * was then); `delivered_at` is filled in at each attempt.
 *
 * Versioning: fields may be added within `quire.webhook/1`; renaming or removing one, or
 * changing a type, makes `quire.webhook/2`.
 */
import { findLiveItem } from '../access';
import { User } from '../accounts';
import { Page, PageHistory, versionText } from '../pages';
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

async function actorOf(uid: number): Promise<WebhookPayload['actor']> {
  if (!(uid > 0)) return null;
  const user = await User.findOne({ uid }, { uid: 1, username: 1, name: 1, _id: 0 }).lean();
  return user ? { uid, username: user.username, name: user.name ?? '' } : null;
}

/** The page's text now and in its previous stored version (empty for a new page). */
async function pageDiff(pageId: number, created: boolean): Promise<LineDiff | null> {
  const page = await Page.findOne({ page_id: pageId }, { page_content: 1, _id: 0 }).lean();
  if (!page) return null;
  if (created) return lineDiff('', page.page_content ?? '');
  const previous = await PageHistory.findOne({ page_id: pageId }, { _id: 0 })
    .sort({ page_history_id: -1 })
    .lean();
  return lineDiff(previous ? versionText(previous) : '', page.page_content ?? '');
}

export interface PayloadInput {
  event: HookEvent;
  itemId: number;
  pageId?: number;
  byUid: number;
  /** A page save: diff against the previous version (`created`: against nothing). */
  diff?: { created: boolean };
  /** Extra words for the summary ("2 members added"). */
  detail?: string;
  contract?: WebhookContract;
}

export async function buildPayload(input: PayloadInput): Promise<QueuedPayload | null> {
  const item = await findLiveItem(input.itemId);
  if (!item) return null;
  const base = (await getSiteSettings()).siteUrl.replace(/\/+$/, '');
  const page = input.pageId
    ? await Page.findOne(
        { page_id: input.pageId },
        { page_id: 1, page_title: 1, cat_id: 1, _id: 0 },
      ).lean()
    : null;
  const actor = await actorOf(input.byUid);
  const who = actor ? actor.name || actor.username : 'Someone';
  const target = page ? page.page_title : item.item_name;
  const where = page ? ` in ${item.item_name}` : '';
  const diff = input.diff && input.pageId ? await pageDiff(input.pageId, input.diff.created) : null;
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
}
