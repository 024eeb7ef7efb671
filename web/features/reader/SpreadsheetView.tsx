/**
 * Spreadsheet items (type 4), read-only: each sheet as a plain table with column letters and row
 * numbers. Editing (and Excel import/export) belongs to the spreadsheet editor; this chunk is
 * loaded only for type-4 items.
 */
import { Empty, Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { unescapeHtml } from '../../markdown/unescape';
import { columnName, parseWorkbook, type Grid } from './sheets';

function SheetTable({ grid }: { grid: Grid }) {
  const { t } = useTranslation();
  if (grid.rows.length === 0) return <Empty description={t('reader.sheetEmpty')} />;
  const cell = {
    border: '1px solid #e5e7eb',
    padding: '4px 8px',
    height: 25,
    whiteSpace: 'pre-wrap' as const,
  };
  const head = {
    ...cell,
    background: '#f6f8fa',
    color: '#59636e',
    fontWeight: 500,
    textAlign: 'center' as const,
  };
  return (
    <div style={{ overflow: 'auto', maxHeight: 'calc(100vh - 150px)' }}>
      <table data-testid="sheet-table" style={{ borderCollapse: 'collapse', fontSize: 13 }}>
        <thead>
          <tr>
            <th style={head} />
            {Array.from({ length: grid.columns }, (_, c) => (
              <th key={c} style={head}>
                {columnName(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((row, r) => (
            <tr key={r}>
              <th style={head}>{r + 1}</th>
              {row.map((text, c) => (
                <td key={c} style={cell}>
                  {text}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function SpreadsheetView({ content }: { content: string }) {
  const { t } = useTranslation();
  const sheets = useMemo(() => parseWorkbook(unescapeHtml(content)), [content]);
  if (sheets.length === 0)
    return <Empty description={t('reader.sheetEmpty')} style={{ marginTop: 60 }} />;
  if (sheets.length === 1) return <SheetTable grid={sheets[0]} />;
  return (
    <Tabs
      items={sheets.map((grid, index) => ({
        key: String(index),
        label: grid.name,
        children: <SheetTable grid={grid} />,
      }))}
    />
  );
}
