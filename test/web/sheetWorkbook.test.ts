/**
 * The spreadsheet's content format (spec 002 §3): ShowDoc's x-spreadsheet JSON read into grids
 * and written back — texts edited, everything else a ShowDoc client stored kept as it was, merged
 * ranges both ways — and Excel files read and written with exceljs (formulas as their values).
 */
import { describe, expect, test } from '@jest/globals';
import ExcelJS from 'exceljs';
import { readXlsx, writeXlsx } from '../../web/features/sheet/excel';
import {
  columnLetters,
  MIN_COLUMNS,
  parseWorkbook,
  serializeWorkbook,
  SHEET_ROWS,
} from '../../web/features/sheet/workbook';

const SHOWDOC_SHEET = [
  {
    name: 'Plan',
    freeze: 'A1',
    styles: [{ bold: true }],
    merges: ['A3:B4'],
    rows: {
      0: { cells: { 0: { text: 'Title', style: 0 }, 2: { text: '=SUM(1,2)' } } },
      2: { cells: { 0: { text: 'Merged', merge: [1, 1] } } },
      len: 100,
    },
    cols: { len: 26, 0: { width: 200 } },
    validations: [],
    autofilter: {},
  },
];

describe('x-spreadsheet content', () => {
  test('reads texts into an 800-row grid of at least A–Z, with the merges', () => {
    const [sheet] = parseWorkbook(JSON.stringify(SHOWDOC_SHEET));
    expect(sheet.name).toBe('Plan');
    expect(sheet.data).toHaveLength(SHEET_ROWS);
    expect(sheet.data[0]).toHaveLength(MIN_COLUMNS);
    expect([sheet.data[0][0], sheet.data[0][2], sheet.data[2][0]]).toEqual([
      'Title',
      '=SUM(1,2)',
      'Merged',
    ]);
    expect(sheet.merges).toEqual([{ row: 2, col: 0, rowspan: 2, colspan: 2 }]);
  });

  test('writes back edited texts and keeps styles, widths, a cell style and the merge', () => {
    const sheets = parseWorkbook(JSON.stringify(SHOWDOC_SHEET));
    sheets[0].data[0][0] = 'New title';
    sheets[0].data[0][2] = '';
    sheets[0].data[5][3] = 'added';
    const [out] = JSON.parse(serializeWorkbook(sheets));
    expect(out).toMatchObject({
      name: 'Plan',
      freeze: 'A1',
      styles: [{ bold: true }],
      cols: { len: 26, 0: { width: 200 } },
      merges: ['A3:B4'],
    });
    expect(out.rows).toEqual({
      0: { cells: { 0: { text: 'New title', style: 0 } } },
      2: { cells: { 0: { text: 'Merged', merge: [1, 1] } } },
      5: { cells: { 3: { text: 'added' } } },
      len: SHEET_ROWS,
    });
  });

  test('empty, unreadable or non-list content is one empty sheet; a round trip is stable', () => {
    for (const content of ['', 'not json', '42'])
      expect(parseWorkbook(content).map((s) => s.name)).toEqual(['sheet1']);
    const once = serializeWorkbook(parseWorkbook(JSON.stringify(SHOWDOC_SHEET)));
    expect(serializeWorkbook(parseWorkbook(once))).toBe(once);
  });

  test('column letters: A, Z, AA, AZ, BA', () => {
    expect([0, 25, 26, 51, 52].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA']);
  });
});

describe('Excel', () => {
  test('an .xlsx reads as sheets: names, texts, formula results, merged ranges; writing it back keeps them', async () => {
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('Prices');
    first.getCell('A1').value = 'Plan';
    first.getCell('B2').value = 10;
    first.getCell('B3').value = { formula: 'B2*2', result: 20 };
    first.getCell('A5').value = 'Wide';
    first.mergeCells('A5:C6');
    workbook.addWorksheet('Notes').getCell('C2').value = 'note';
    const bytes = (await workbook.xlsx.writeBuffer()) as ArrayBuffer;

    const sheets = await readXlsx(bytes);
    expect(sheets.map((s) => s.name)).toEqual(['Prices', 'Notes']);
    expect([sheets[0].data[0][0], sheets[0].data[1][1], sheets[0].data[2][1]]).toEqual([
      'Plan',
      '10',
      '20',
    ]);
    // Only the merged range's first cell keeps the text.
    expect([sheets[0].data[4][0], sheets[0].data[4][1]]).toEqual(['Wide', '']);
    expect(sheets[0].merges).toEqual([{ row: 4, col: 0, rowspan: 2, colspan: 3 }]);
    expect(sheets[1].data[1][2]).toBe('note');

    const again = new ExcelJS.Workbook();
    await again.xlsx.load(await writeXlsx(sheets));
    const prices = again.getWorksheet('Prices')!;
    expect([
      prices.getCell('A1').value,
      prices.getCell('B2').value,
      prices.getCell('B3').value,
    ]).toEqual(['Plan', 10, 20]);
    expect(prices.getCell('C6').isMerged).toBe(true);
    expect(again.getWorksheet('Notes')!.getCell('C2').value).toBe('note');
  });

  test('a file that is not an .xlsx is refused', async () => {
    await expect(readXlsx(new TextEncoder().encode('not a workbook').buffer)).rejects.toThrow();
  });
});
