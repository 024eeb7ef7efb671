/**
 * Spreadsheet items store their workbook as JSON in the page (reference pages §12): a list of
 * sheets in x-spreadsheet's format, `{name, rows: {"<r>": {cells: {"<c>": {text}}}}}`. This turns
 * it into plain grids for the read-only view; anything unreadable is an empty workbook.
 */
export interface Grid {
  name: string;
  /** rows[r][c] = cell text */
  rows: string[][];
  columns: number;
}

/** Rows shown at most (spec 002 §9: the sheet has 800 rows). */
export const MAX_ROWS = 800;

type Cells = Record<string, { text?: unknown } | undefined>;
type Rows = Record<string, { cells?: Cells } | number | undefined>;

function gridOf(sheet: unknown, index: number): Grid {
  const name =
    sheet && typeof sheet === 'object' && typeof (sheet as { name?: unknown }).name === 'string'
      ? (sheet as { name: string }).name
      : `Sheet${index + 1}`;
  const rowsIn = (sheet as { rows?: Rows } | null)?.rows ?? {};
  const rows: string[][] = [];
  let columns = 0;
  for (const [key, row] of Object.entries(rowsIn)) {
    const r = Number(key);
    if (!Number.isInteger(r) || r < 0 || r >= MAX_ROWS || !row || typeof row !== 'object') continue;
    for (const [colKey, cell] of Object.entries(row.cells ?? {})) {
      const c = Number(colKey);
      if (!Number.isInteger(c) || c < 0 || c > 1000 || !cell) continue;
      const text = cell.text === undefined || cell.text === null ? '' : String(cell.text);
      if (text === '') continue;
      while (rows.length <= r) rows.push([]);
      rows[r][c] = text;
      columns = Math.max(columns, c + 1);
    }
  }
  for (const row of rows) for (let c = 0; c < columns; c++) row[c] ??= '';
  return { name, rows, columns };
}

export function parseWorkbook(content: string): Grid[] {
  if (!content.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) parsed = [parsed];
  return (parsed as unknown[]).map(gridOf);
}

/** A, B, …, Z, AA, AB, … */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
