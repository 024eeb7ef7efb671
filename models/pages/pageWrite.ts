/**
 * The write step of a page save (savePage.ts): the page row itself — an update that keeps its
 * before-image for the version, or an insert with a new id — and, found while it is written, the
 * ids the save's other writes (saveEffects.ts) need.
 */
import type { CreateOptions } from 'mongoose';
import { planLogRow } from '../items';
import { errors, nextId, UNJOURNALED } from '../platform';
import { pageMissing } from '../access';
import { historyVersionCount } from './pageHistory';
import { CUSTOM_ID_TAKEN, type PageFields } from './savePlan';
import { DEFAULT_PAGE_ORDER, Page, type PageDoc } from './schemas/page';

export interface PageWriteParams {
  itemId: number;
  /** The page as stored before the save; null = create. */
  existing: PageDoc | null;
  fields: PageFields;
  now: number;
  /** Wait for the row's disk flush (`SaveOptions.rowStored`); by default the change log's carries it. */
  journaled?: boolean;
  /** false: no version and no change-log row (`SaveOptions.versioned`), so no ids for them. */
  versioned?: boolean;
}

export interface WrittenPage {
  /** The page as the save left it. */
  page: PageDoc;
  /** The row this update replaced (null on create): it becomes the version. */
  before: PageDoc | null;
  created: boolean;
  /** The version's id and how many versions to keep (0 on create and on an unversioned save). */
  historyId: number;
  keepVersions: number;
  /** The change log row's id (and trim bound), for `logChange`; null: the save writes none. */
  logRow: Awaited<ReturnType<typeof planLogRow>> | null;
}

/** Write: the page row. */
export async function writePage({
  itemId,
  existing,
  fields,
  now,
  journaled = false,
  versioned = true,
}: PageWriteParams): Promise<WrittenPage> {
  // The version's and the log row's ids (and the log trim's bound, when this row trims) are
  // found while the page is written. None of these writes waits for the disk: the save's effects
  // after them (applySaveEffects) always write the change-log row, journaled, and the journal's
  // order makes that one flush carry them all — a save waits for one flush, not two in a row
  // (platform/writeConcerns.ts). The version trim needs no query: the page write itself numbers
  // the version (`history_seq`). A failed save leaves a gap in those ids, as a failed insert does
  // in any counter.
  const planned = Promise.all([
    existing && versioned ? nextId('page_history_id', { journal: false }) : 0,
    existing && versioned ? historyVersionCount() : 0,
    versioned ? planLogRow(itemId) : null,
  ]);
  planned.catch(() => {}); // awaited below unless the page write fails first
  let page: PageDoc;
  let before: PageDoc | null = null;
  try {
    const concern = journaled ? {} : UNJOURNALED;
    if (existing) ({ page, before } = await updateExisting(existing, fields, concern, versioned));
    else page = await insertNew(itemId, fields, now, concern);
  } catch (error) {
    if (isDuplicateKey(error)) throw errors.failed(CUSTOM_ID_TAKEN);
    throw error;
  }
  const [historyId, keepVersions, logRow] = await planned;
  return { page, before, created: !existing, historyId, keepVersions, logRow };
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

type RowConcern = typeof UNJOURNALED | Record<string, never>;

async function updateExisting(
  existing: PageDoc,
  fields: PageFields,
  concern: RowConcern,
  versioned: boolean,
): Promise<{ page: PageDoc; before: PageDoc }> {
  // The before-image of this very update becomes the version (recordVersion), so concurrent saves
  // each keep the text they replaced.
  const before = await Page.findOneAndUpdate(
    { page_id: existing.page_id, item_id: existing.item_id, is_del: 0 },
    // `history_seq` numbers the versions: an unversioned save adds none.
    versioned ? { $set: fields, $inc: { history_seq: 1 } } : { $set: fields },
    { returnDocument: 'before', projection: { _id: 0 }, ...concern },
  ).lean<PageDoc>();
  if (!before) throw pageMissing();
  return {
    page: { ...before, ...fields, history_seq: (before.history_seq ?? 0) + (versioned ? 1 : 0) },
    before,
  };
}

async function insertNew(
  itemId: number,
  fields: PageFields,
  now: number,
  concern: RowConcern,
): Promise<PageDoc> {
  const doc: PageDoc = {
    page_id: await nextId('page_id', { journal: false }),
    item_id: itemId,
    page_comments: '',
    s_number: DEFAULT_PAGE_ORDER,
    page_addtime: now,
    author_uid: 0,
    author_username: '',
    is_del: 0,
    ext_info: '',
    is_draft: 0,
    page_custom_id: '',
    history_seq: 0,
    ...fields,
  };
  // mongoose's typings leave `writeConcern` out of create's options; its save passes it on.
  await Page.create([doc], concern as CreateOptions);
  return doc;
}
