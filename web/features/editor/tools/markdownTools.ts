/**
 * The text conversions behind the editor's document tools (spec 001 §2 "document tools", §5):
 * JSON to a parameter table, JSON beautified into a code block, spreadsheet cells to a table.
 * Pure string functions (no DOM, no React), so they are unit-tested in node; the dialogs call
 * them and insert the result at the cursor.
 */

/** "JSON to table" got text that is not a JSON object (or array of objects): alert and insert nothing. */
export class JsonParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonParseError';
  }
}

/** The localised texts of a parameter table (ShowDoc: 参数名 / 类型 / 说明, and 无 as description). */
export interface ParamTableLabels {
  name: string;
  type: string;
  description: string;
  /** What each row's description cell says until the author writes one. */
  noDescription: string;
}

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return jsonType(value) === 'object';
}

/** An array stands for its elements: describe the first one (nested arrays too). */
function firstElement(value: unknown): unknown {
  let current = value;
  while (Array.isArray(current)) current = current[0];
  return current;
}

/** One row per key; a nested object's keys follow it as `parent.child`. */
function parameterRows(object: Record<string, unknown>, prefix: string, rows: string[][]): void {
  for (const [key, value] of Object.entries(object)) {
    const name = prefix ? `${prefix}.${key}` : key;
    rows.push([name, jsonType(value)]);
    const inner = firstElement(value);
    if (isObject(inner)) parameterRows(inner, name, rows);
  }
}

/** A Markdown table cell: a `|` would end the cell and a line break the row. */
export function tableCell(text: string): string {
  return text
    .trim()
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, '<br>');
}

/** Rows (the first is the header) as a left-aligned Markdown table, every row as wide as the widest. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => tableCell(cells[i] ?? '')).join(' | ')} |`;
  const separator = `| ${Array.from({ length: width }, () => ':---').join(' | ')} |`;
  return [line(rows[0]!), separator, ...rows.slice(1).map(line)].join('\n');
}

/**
 * ShowDoc's "JSON to table": the keys of a JSON object (or of the first element of an array) as
 * a parameter table — name, JSON type, description placeholder — nested objects as `a.b` rows.
 * Throws JsonParseError when the text is not JSON or holds no object.
 */
export function jsonToMarkdownTable(json: string, labels: ParamTableLabels): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new JsonParseError((error as Error).message);
  }
  const root = firstElement(value);
  if (!isObject(root)) throw new JsonParseError('a JSON object is expected');
  const rows: string[][] = [];
  parameterRows(root, '', rows);
  return markdownTable([
    [labels.name, labels.type, labels.description],
    ...rows.map(([name, type]) => [name!, type!, labels.noDescription]),
  ]);
}

/** A backtick fence longer than any backtick run in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * "Beautify JSON": valid JSON comes back pretty-printed in a fenced `json` block on lines of its
 * own; anything else comes back as it is (spec 001 §5: the raw text is inserted).
 */
export function beautifyJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const pretty = JSON.stringify(value, null, 2);
  const fence = fenceFor(pretty);
  return `\n${fence}json\n${pretty}\n${fence}\n`;
}

/**
 * Delimited text as rows of cells, as spreadsheets write it: a cell in double quotes may hold the
 * delimiter, line breaks and `""` (a quote); line ends are \n, \r\n or \r.
 */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let atCellStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && atCellStart) {
      quoted = true;
      atCellStart = false;
    } else if (ch === delimiter) {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
    } else {
      // Blanks before an opening quote (`a, "b"`) still let the cell be quoted.
      if (ch !== ' ') atCellStart = false;
      cell += ch;
    }
  }
  row.push(cell);
  rows.push(row);
  return rows;
}

/**
 * "Paste-insert table": cells copied from a spreadsheet (tab-separated; comma-separated when the
 * text has no tab) as a Markdown table whose first row is the header. Blank lines are dropped;
 * '' when nothing is left.
 */
export function tabularToMarkdownTable(text: string): string {
  const delimiter = text.includes('\t') ? '\t' : ',';
  const rows = parseDelimited(text, delimiter).filter((row) => row.some((c) => c.trim() !== ''));
  return markdownTable(rows);
}

/** A table inserted at the cursor needs a blank line before and after it to be a block of its own. */
export function asBlock(markdown: string): string {
  return `\n\n${markdown}\n\n`;
}
