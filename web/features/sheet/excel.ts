/**
 * Excel in and out (spec 002 §2, §9) with exceljs, loaded only when a user imports or exports
 * (it is larger than the grid itself). Every worksheet becomes a sheet; formulas are kept as
 * their values (the last value Excel computed, as ShowDoc's export did), merged ranges and sheet
 * names go both ways.
 */
import type { CellValue, Workbook } from 'exceljs';
import { emptySheet, MIN_COLUMNS, SHEET_ROWS, type Merge, type Sheet } from './workbook';

export const EXPORT_FILE_NAME = 'showdoc.xlsx';

async function newWorkbook(): Promise<Workbook> {
  const { default: ExcelJS } = await import('exceljs');
  return new ExcelJS.Workbook();
}

/** A cell's value as the text a sheet shows. */
function textOf(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return textOf((value as { result?: CellValue }).result ?? null);
  if ('hyperlink' in value) return String((value as { text?: unknown }).text ?? value.hyperlink);
  if ('error' in value) return String(value.error);
  return '';
}

/** An .xlsx file → sheets (throws when it is not one). */
export async function readXlsx(buffer: ArrayBuffer): Promise<Sheet[]> {
  const workbook = await newWorkbook();
  await workbook.xlsx.load(buffer);
  const sheets: Sheet[] = [];
  workbook.eachSheet((worksheet) => {
    const sheet = emptySheet(worksheet.name);
    const rows = Math.max(SHEET_ROWS, worksheet.rowCount);
    const cols = Math.max(MIN_COLUMNS, worksheet.columnCount);
    sheet.data = Array.from({ length: rows }, () => Array.from({ length: cols }, () => ''));
    worksheet.eachRow((row, r) => {
      row.eachCell((cell, c) => {
        // The slaves of a merged range repeat the master's value: only the master keeps text.
        if (cell.isMerged && cell.master.address !== cell.address) return;
        sheet.data[r - 1][c - 1] = textOf(cell.value);
      });
    });
    const merges = (worksheet.model as { merges?: string[] }).merges ?? [];
    sheet.merges = merges.flatMap((range): Merge[] => {
      const [from, to] = range.split(':');
      if (!from || !to) return [];
      const a = worksheet.getCell(from);
      const b = worksheet.getCell(to);
      const row = Number(a.row) - 1;
      const col = Number(a.col) - 1;
      return [{ row, col, rowspan: Number(b.row) - row, colspan: Number(b.col) - col }];
    });
    sheets.push(sheet);
  });
  if (!sheets.length) throw new Error('no worksheet');
  return sheets;
}

/** Sheets → .xlsx bytes. Texts that read as numbers are written as numbers (Excel sums them). */
export async function writeXlsx(sheets: Sheet[]): Promise<ArrayBuffer> {
  const workbook = await newWorkbook();
  const used = new Set<string>();
  for (const sheet of sheets) {
    // Excel refuses duplicate or over-long names and some characters.
    let name = sheet.name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'sheet';
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${name.slice(0, 28)} ${n}`;
    used.add(name.toLowerCase());
    const worksheet = workbook.addWorksheet(name);
    sheet.data.forEach((line, r) =>
      line.forEach((text, c) => {
        if (text === '' || text == null) return;
        const value = String(text);
        worksheet.getCell(r + 1, c + 1).value = /^-?\d+(\.\d+)?$/.test(value.trim())
          ? Number(value)
          : value;
      }),
    );
    for (const m of sheet.merges)
      if (m.rowspan > 1 || m.colspan > 1)
        worksheet.mergeCells(m.row + 1, m.col + 1, m.row + m.rowspan, m.col + m.colspan);
  }
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}

/** Hands the bytes to the browser as a download named showdoc.xlsx. */
export function download(bytes: ArrayBuffer, fileName = EXPORT_FILE_NAME): void {
  const blob = new Blob([bytes], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
