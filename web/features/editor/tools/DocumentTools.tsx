/**
 * The document tools of the editor's toolbar (spec 001 §2): history versions, JSON to table,
 * beautify JSON, paste-insert table and SQL to Markdown table. The editor screen renders this
 * fragment inside its toolbar; each button opens a dialog whose result goes in at the cursor.
 */
import {
  FormatPainterOutlined,
  ConsoleSqlOutlined,
  InsertRowBelowOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorToolProps } from '../contract';
import { sqlToMarkdownTable } from './documentToolsApi';
import { HistoryTool } from './HistoryTool';
import {
  asBlock,
  beautifyJson,
  jsonToMarkdownTable,
  JsonParseError,
  tabularToMarkdownTable,
} from './markdownTools';
import { ToolButton } from '../ToolButton';
import { useAppFeedback } from '../../../components/AppFeedback';

// Loaded when a tool is opened (issue #22), not with the editor.
const TextToolDialog = lazy(() =>
  import('./TextToolDialog').then((m) => ({ default: m.TextToolDialog })),
);

type TextTool = 'jsonTable' | 'beautify' | 'pasteTable' | 'sqlTable';

/** Toolbar order, as ShowDoc's format-tools menu. Test ids: `tool-<testId>`. */
const TEXT_TOOLS: { key: TextTool; testId: string; icon: ReactNode }[] = [
  { key: 'jsonTable', testId: 'json-table', icon: <TableOutlined /> },
  { key: 'beautify', testId: 'json-beautify', icon: <FormatPainterOutlined /> },
  { key: 'pasteTable', testId: 'paste-table', icon: <InsertRowBelowOutlined /> },
  { key: 'sqlTable', testId: 'sql-table', icon: <ConsoleSqlOutlined /> },
];

export function DocumentTools({ editor, page }: EditorToolProps) {
  const { t } = useTranslation();
  const { modal, message } = useAppFeedback();
  const [active, setActive] = useState<TextTool | null>(null);

  function open(tool: TextTool) {
    // A watched (locked), archived or read-only page takes no insertions.
    if (editor.isWritable()) setActive(tool);
    else message.warning(t('editTools.readOnly'));
  }

  /** Each tool's text → Markdown to insert; null when it has told the user why there is none. */
  const convert: Record<TextTool, (text: string) => Promise<string | null> | string | null> = {
    jsonTable: (text) => {
      try {
        return asBlock(
          jsonToMarkdownTable(text, {
            name: t('editTools.jsonTable.name'),
            type: t('editTools.jsonTable.type'),
            description: t('editTools.jsonTable.description'),
            noDescription: t('editTools.jsonTable.noDescription'),
          }),
        );
      } catch (error) {
        if (!(error instanceof JsonParseError)) throw error;
        modal.warning({ content: t('editTools.jsonTable.parseFailed'), okText: t('common.ok') });
        return null;
      }
    },
    // Not JSON: the text goes in as it is (spec 001 §5).
    beautify: (text) => beautifyJson(text),
    pasteTable: (text) => {
      const table = tabularToMarkdownTable(text);
      if (table) return asBlock(table);
      message.warning(t('editTools.pasteTable.empty'));
      return null;
    },
    // Errors (not a CREATE TABLE) are alerted by the API client; the dialog stays open.
    sqlTable: (text) => sqlToMarkdownTable(text),
  };

  const tool = TEXT_TOOLS.find((entry) => entry.key === active);
  return (
    <>
      <HistoryTool editor={editor} page={page} />
      {TEXT_TOOLS.map(({ key, testId, icon }) => (
        <ToolButton
          key={key}
          testId={`tool-${testId}`}
          icon={icon}
          tip={t(`editTools.${key}.button`)}
          onClick={() => open(key)}
        />
      ))}
      <Suspense fallback={null}>
        {tool && (
          <TextToolDialog
            key={tool.key}
            title={t(`editTools.${tool.key}.button`)}
            placeholder={t(`editTools.${tool.key}.placeholder`)}
            testId={tool.testId}
            convert={convert[tool.key]}
            onInsert={(markdown) => {
              editor.insert(markdown);
              editor.focus();
            }}
            onClose={() => setActive(null)}
          />
        )}
      </Suspense>
    </>
  );
}
