/**
 * What the spreadsheet view keeps in this browser (spec 002 §4): the local draft (every 30 s while
 * editing, offered back when it differs from the saved workbook, removed once answered and after
 * every save) and the "do not remind again" choice of the auto-save tip.
 */
export const DRAFT_INTERVAL_MS = 30_000;
/** A cell edit is saved this long after the last one (a burst of edits is one save). */
export const SAVE_DEBOUNCE_MS = 400;
/** ShowDoc's key, so the choice made in either client holds in this browser. */
const AUTO_SAVE_TIP_KEY = 'table_item_auto_save_tips';

export const sheetDraftKey = (pageId: number) => `quire.sheet.draft.${pageId}`;

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage disabled or full
  }
}

export const readSheetDraft = (pageId: number): string | null =>
  safely(() => localStorage.getItem(sheetDraftKey(pageId)), null);

export const writeSheetDraft = (pageId: number, content: string): void =>
  safely(() => localStorage.setItem(sheetDraftKey(pageId), content), undefined);

export const removeSheetDraft = (pageId: number): void =>
  safely(() => localStorage.removeItem(sheetDraftKey(pageId)), undefined);

export const autoSaveTipOff = (): boolean =>
  safely(() => localStorage.getItem(AUTO_SAVE_TIP_KEY) === '1', false);

export const turnAutoSaveTipOff = (): void =>
  safely(() => localStorage.setItem(AUTO_SAVE_TIP_KEY, '1'), undefined);
