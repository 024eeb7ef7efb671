/**
 * The content of a spreadsheet item's page (type 4; spec "administration and special views" §3):
 * JSON of a list of sheets in x-spreadsheet's format, the one ShowDoc's client writes and its
 * exports read — `[{name, rows: {"<r>": {cells: {"<c>": {text, merge?}}}, len?}, merges?: ["A1:B2"],
 * …}]`. Keys other than these (styles, cols, freeze, validations) are kept as sent.
 *
 * `page/save` refuses what no client could read back (not JSON, not a list of sheets, cells that
 * are not objects) and what is too large to edit in a browser, before anything is written, so the
 * stored version stays the last good one. `sheetCellChanges` gives the cell-level difference of
 * two versions for the live push to open spreadsheet views.
 */
import { ApiError } from '../platform';

/** Characters of sheet JSON accepted (after URL-decoding). */
export const MAX_SHEET_CONTENT = 1_000_000;
export const MAX_SHEETS = 64;
/** Row and column indexes accepted (Excel's own limits are far above what a browser edits). */
export const MAX_SHEET_ROWS = 100_000;
export const MAX_SHEET_COLUMNS = 1_000;
/** Non-empty cells in the whole workbook. */
export const MAX_SHEET_CELLS = 200_000;
const MAX_SHEET_NAME = 100;

function fail(detail: string): never {
  throw new ApiError(10101, `Invalid spreadsheet content: ${detail}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function indexOf(key: string, max: number): number {
  if (!/^\d{1,7}$/.test(key)) return -1;
  const n = Number(key);
  return n < max ? n : -1;
}

/** Checks one page content of a spreadsheet item; throws 10101 with the reason. */
export function checkSheetContent(content: string): void {
  if (content.length > MAX_SHEET_CONTENT)
    throw new ApiError(
      10101,
      `The spreadsheet is too large (${content.length} characters, at most ${MAX_SHEET_CONTENT})`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    fail('not JSON');
  }
  const sheets = Array.isArray(parsed) ? parsed : [parsed];
  if (sheets.length > MAX_SHEETS) fail(`at most ${MAX_SHEETS} sheets`);
  let cells = 0;
  sheets.forEach((sheet, s) => {
    if (!isObject(sheet)) fail(`sheet ${s + 1} is not an object`);
    if (sheet.name !== undefined && typeof sheet.name !== 'string')
      fail(`sheet ${s + 1} has a name that is not text`);
    if (typeof sheet.name === 'string' && sheet.name.length > MAX_SHEET_NAME)
      fail(`sheet names have at most ${MAX_SHEET_NAME} characters`);
    if (sheet.rows === undefined) return;
    if (!isObject(sheet.rows)) fail(`the rows of sheet ${s + 1} are not an object`);
    for (const [rowKey, row] of Object.entries(sheet.rows)) {
      if (rowKey === 'len') continue;
      if (indexOf(rowKey, MAX_SHEET_ROWS) < 0) fail(`row "${rowKey.slice(0, 20)}" out of range`);
      if (!isObject(row)) fail(`row ${rowKey} of sheet ${s + 1} is not an object`);
      if (row.cells === undefined) continue;
      if (!isObject(row.cells)) fail(`the cells of row ${rowKey} are not an object`);
      for (const [colKey, cell] of Object.entries(row.cells)) {
        if (indexOf(colKey, MAX_SHEET_COLUMNS) < 0)
          fail(`column "${colKey.slice(0, 20)}" out of range`);
        if (!isObject(cell)) fail(`cell ${rowKey}:${colKey} is not an object`);
        if (++cells > MAX_SHEET_CELLS) fail(`at most ${MAX_SHEET_CELLS} cells`);
      }
    }
  });
}

/** One cell's new text in a saved version ('' = emptied). */
export interface SheetCellChange {
  sheet: number;
  row: number;
  col: number;
  text: string;
}

/** sheet index → "r:c" → text, for contents that passed `checkSheetContent` ('' or bad = none). */
function cellTexts(content: string): Array<Map<string, string>> {
  let parsed: unknown;
  try {
    parsed = content.trim() ? JSON.parse(content) : [];
  } catch {
    return [];
  }
  const sheets = Array.isArray(parsed) ? parsed : [parsed];
  return sheets.map((sheet) => {
    const texts = new Map<string, string>();
    const rows = isObject(sheet) && isObject(sheet.rows) ? sheet.rows : {};
    for (const [r, row] of Object.entries(rows)) {
      if (!isObject(row) || !isObject(row.cells)) continue;
      for (const [c, cell] of Object.entries(row.cells)) {
        const text = isObject(cell) && cell.text != null ? String(cell.text) : '';
        if (text !== '') texts.set(`${r}:${c}`, text);
      }
    }
    return texts;
  });
}

/**
 * The cells whose text differs between two versions, or null when the workbook's shape changed
 * (sheets added, removed or renamed): then a viewer reloads the whole workbook.
 */
export function sheetCellChanges(before: string, after: string): SheetCellChange[] | null {
  const names = (content: string) => {
    try {
      const parsed: unknown = content.trim() ? JSON.parse(content) : [];
      return (Array.isArray(parsed) ? parsed : [parsed]).map((s) =>
        isObject(s) ? String(s.name ?? '') : '',
      );
    } catch {
      return [];
    }
  };
  const oldNames = names(before);
  const newNames = names(after);
  if (oldNames.length > 0 && oldNames.join('\u0000') !== newNames.join('\u0000')) return null;
  const a = cellTexts(before);
  const b = cellTexts(after);
  const changes: SheetCellChange[] = [];
  b.forEach((texts, sheet) => {
    const old = a[sheet] ?? new Map<string, string>();
    const keys = new Set([...old.keys(), ...texts.keys()]);
    for (const key of keys) {
      const text = texts.get(key) ?? '';
      if ((old.get(key) ?? '') === text) continue;
      const [row, col] = key.split(':').map(Number);
      changes.push({ sheet, row, col, text });
    }
  });
  return changes;
}
