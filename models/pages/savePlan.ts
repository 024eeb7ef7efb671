/**
 * The plan step of a page save (savePage.ts): once the save is authorized, what the page row will
 * hold — its catalog, article ID, ext_info, draft flag — and the "save and notify" reminders,
 * which start being found while the page is written.
 */
import { draftFlagAfterSave, draftFlagToWrite, type Actor, type ItemAccess } from '../access';
import { errors } from '../platform';
import { checkPageQuota } from './pageQuota';
import { pageNotifier, type PreparedNotice } from './ports';
import type { SavePageInput } from './saveInput';
import { Page, type PageDoc } from './schemas/page';
import { checkSheetContent } from './sheetContent';

export const SPREADSHEET = 4;
const RUNAPI = 3;

export const CUSTOM_ID_TAKEN = 'Article ID already exists';

export type PageFields = Partial<PageDoc> &
  Pick<PageDoc, 'page_title' | 'page_content' | 'cat_id' | 'addtime'>;

export interface SavePlan {
  fields: PageFields;
  /** "Save and notify" reminders being prepared (updates only). */
  notice: PreparedNotice | null;
}

/** The catalog the page is in after the save: the one asked for, else where it is, else root. */
export function targetCatalog(input: SavePageInput, existing: PageDoc | null): number {
  return input.catId ?? existing?.cat_id ?? 0;
}

/** Plan: the checks that need the item or the database, then the row the save writes. */
export async function planSave(
  actor: Actor,
  input: SavePageInput,
  access: ItemAccess,
  existing: PageDoc | null,
  now: number,
): Promise<SavePlan> {
  if (access.item.item_type === SPREADSHEET) checkSheetContent(input.content);
  if (!existing) await checkPageQuota(input.itemId);
  const catId = targetCatalog(input, existing);
  const customId = input.customId ?? existing?.page_custom_id ?? '';
  await checkCustomIdFree(input.itemId, customId, input.pageId, existing?.page_custom_id);

  const itemType = access.item.item_type || 1;
  let extInfo = input.extInfo ?? existing?.ext_info ?? '';
  if (itemType === RUNAPI && !extInfo) extInfo = runApiExtInfo(input.content);
  const isDraft = draftFlagToWrite(input.isDraft);
  const fields: PageFields = {
    page_title: input.title,
    page_content: input.content,
    page_comments: input.remark ?? '',
    cat_id: catId,
    addtime: now,
    author_uid: actor.uid,
    author_username: actor.username,
    ext_info: extInfo,
    page_custom_id: customId,
    ...(input.sNumber && input.sNumber > 0 ? { s_number: input.sNumber } : {}),
    ...(isDraft !== undefined ? { is_draft: isDraft } : {}),
  };
  return { fields, notice: prepareNotice(actor, input, existing, catId) };
}

/** RunApi pages carry their request type in ext_info (reference pages §1.2). */
function runApiExtInfo(content: string): string {
  let method = 'get';
  try {
    const parsed = JSON.parse(content) as { info?: { method?: unknown } };
    if (typeof parsed?.info?.method === 'string' && parsed.info.method)
      method = parsed.info.method.toLowerCase();
  } catch {
    // Not JSON: a plain Markdown page in a RunApi item keeps the default.
  }
  return JSON.stringify({ page_type: 'api', api_info: { method } });
}

/**
 * An article ID names one page of its item (spec 001 §5, "unique per language": Quire's pages
 * have no language, so unique in the item). Addresses take the article ID first and the page ID
 * otherwise (`resolvePageId`), so an article ID of digits only would shadow the page whose ID it
 * is: such an ID must be the page's own.
 */
async function checkCustomIdFree(
  itemId: number,
  customId: string,
  pageId: number,
  stored: string | undefined,
): Promise<void> {
  // Unchanged: the unique index already holds it (and older data keeps saving).
  if (!customId || customId === stored) return;
  if (/^\d+$/.test(customId) && Number(customId) !== pageId) {
    const shadowed = await Page.exists({ item_id: itemId, page_id: Number(customId) });
    throw errors.failed(
      shadowed ? CUSTOM_ID_TAKEN : "An article ID of digits only must be the page's own ID",
    );
  }
  const taken = await Page.exists({
    item_id: itemId,
    page_custom_id: customId,
    page_id: { $ne: pageId },
  });
  if (taken) throw errors.failed(CUSTOM_ID_TAKEN);
}

/**
 * "Save and notify" (updates only, once the save has passed its checks): who is told, and the
 * reminders' ids and text, are found and written while the page is written, for the page as this
 * save leaves it (its catalog, draft flag and author).
 */
function prepareNotice(
  actor: Actor,
  input: SavePageInput,
  existing: PageDoc | null,
  catId: number,
): PreparedNotice | null {
  const notifier = pageNotifier();
  if (!existing || !input.notify || !notifier) return null;
  return notifier.prepare({
    page: {
      ...existing,
      cat_id: catId,
      is_draft: draftFlagAfterSave(input.isDraft, existing.is_draft),
      author_uid: actor.uid,
    },
    byUid: actor.uid,
    fromName: actor.username,
    text: input.notify.content,
  });
}
