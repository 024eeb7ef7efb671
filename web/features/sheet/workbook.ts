/**
 * The spreadsheet page's content (spec 002 §3, §7): JSON of a list of sheets in x-spreadsheet's
 * format — what ShowDoc's client writes and its exports read — turned into Handsontable's grids
 * and back. Only cell texts are edited here; everything else a ShowDoc client stored (styles,
 * column widths, merges, a cell's style index) is carried through untouched, so a sheet saved by
 * Quire still opens the same in ShowDoc.
 */

/** Rows of every sheet (spec 002 §9) and the columns shown at least (A–Z). */
export const SHEET_ROWS = 800;
export const MIN_COLUMNS = 26;

type Json = Record<string, unknown>;

export interface Merge {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

export interface Sheet {
  name: string;
  /** data[row][col] = text; Handsontable edits it in place. */
  data: string[][];
  merges: Merge[];
  /** The sheet object as stored, for the keys this editor does not touch. */
  raw: Json;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** "A1" → {row: 0, col: 0}. */
function cellRef(ref: string): { row: number; col: number } | null {
  const match = /^([A-Z]+)(\d+)$/.exec(ref.trim().toUpperCase());
  if (!match) return null;
  let col = 0;
  for (const ch of match[1]) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, col: col - 1 };
}

/** 0 → "A", 26 → "AA". */
export function columnLetters(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function mergeRef(m: Merge): string {
  return `${columnLetters(m.col)}${m.row + 1}:${columnLetters(m.col + m.colspan - 1)}${m.row + m.rowspan}`;
}

function parseMerges(raw: unknown): Merge[] {
  if (!Array.isArray(raw)) return [];
  const merges: Merge[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'string') continue;
    const [from, to] = entry.split(':').map(cellRef);
    if (!from || !to || to.row < from.row || to.col < from.col) continue;
    merges.push({
      row: from.row,
      col: from.col,
      rowspan: to.row - from.row + 1,
      colspan: to.col - from.col + 1,
    });
  }
  return merges;
}

export function emptySheet(name: string): Sheet {
  return { name, data: grid(SHEET_ROWS, MIN_COLUMNS), merges: [], raw: { name } };
}

function grid(rows: number, cols: number): string[][] {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => ''));
}

/** Un-escaped page content → sheets (at least one). Unreadable content is one empty sheet. */
export function parseWorkbook(content: string, defaultName = 'sheet1'): Sheet[] {
  let parsed: unknown;
  try {
    parsed = content.trim() ? JSON.parse(content) : [];
  } catch {
    parsed = [];
  }
  const list = (Array.isArray(parsed) ? parsed : [parsed]).filter(isObject);
  if (list.length === 0) return [emptySheet(defaultName)];
  return list.map((raw, index) => {
    const rows = isObject(raw.rows) ? raw.rows : {};
    let maxRow = SHEET_ROWS - 1;
    let maxCol = MIN_COLUMNS - 1;
    const texts: Array<[number, number, string]> = [];
    for (const [r, row] of Object.entries(rows)) {
      if (!/^\d+$/.test(r) || !isObject(row) || !isObject(row.cells)) continue;
      for (const [c, cell] of Object.entries(row.cells)) {
        if (!/^\d+$/.test(c) || !isObject(cell)) continue;
        const text = cell.text == null ? '' : String(cell.text);
        if (text === '') continue;
        texts.push([Number(r), Number(c), text]);
        maxRow = Math.max(maxRow, Number(r));
        maxCol = Math.max(maxCol, Number(c));
      }
    }
    const data = grid(maxRow + 1, maxCol + 1);
    for (const [r, c, text] of texts) data[r][c] = text;
    return {
      name: typeof raw.name === 'string' && raw.name ? raw.name : `sheet${index + 1}`,
      data,
      merges: parseMerges(raw.merges),
      raw,
    };
  });
}

/** Sheets → the x-spreadsheet JSON stored as the page content. */
export function serializeWorkbook(sheets: Sheet[]): string {
  return JSON.stringify(
    sheets.map((sheet) => {
      const oldRows = isObject(sheet.raw.rows) ? sheet.raw.rows : {};
      const rows: Json = {};
      // Cells that carry more than text (a style, a merge) stay even when emptied.
      for (const [r, row] of Object.entries(oldRows)) {
        if (!/^\d+$/.test(r) || !isObject(row) || !isObject(row.cells)) continue;
        const cells: Json = {};
        for (const [c, cell] of Object.entries(row.cells)) {
          if (!isObject(cell)) continue;
          const { text: _text, ...rest } = cell;
          if (Object.keys(rest).length) cells[c] = rest;
        }
        rows[r] = { ...row, cells };
      }
      sheet.data.forEach((line, r) =>
        line.forEach((text, c) => {
          if (text === '' || text == null) return;
          const row = (rows[r] ??= { cells: {} }) as { cells: Json };
          row.cells[c] = { ...(row.cells[c] as Json | undefined), text: String(text) };
        }),
      );
      for (const m of sheet.merges) {
        const row = (rows[m.row] ??= { cells: {} }) as { cells: Json };
        row.cells[m.col] = {
          ...(row.cells[m.col] as Json | undefined),
          merge: [m.rowspan - 1, m.colspan - 1],
        };
      }
      for (const [r, row] of Object.entries(rows))
        if (!Object.keys((row as { cells: Json }).cells).length) delete rows[r];
      rows.len = Math.max(SHEET_ROWS, sheet.data.length);
      return { ...sheet.raw, name: sheet.name, merges: sheet.merges.map(mergeRef), rows };
    }),
  );
}
