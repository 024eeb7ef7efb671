/**
 * "SQL to Markdown table" (reference pages §3.14): a MySQL `CREATE TABLE` statement becomes the
 * database-doc table ShowDoc's editor inserts — a `- <table> <comment>` line, then one row per
 * column: field, type (length in parentheses after a space), nullable (是/否), default, comment
 * (`-` when empty). Key and constraint lines are skipped. Several CREATE TABLE statements give
 * several tables; anything else is refused (ShowDoc's legacy server answered an empty string).
 *
 * Parsing uses node-sql-parser's MySQL grammar, loaded on first use (it is large).
 */
import { ApiError } from '../platform';

/** Longest statement accepted: the parser is CPU-bound and the input is user-supplied. */
export const MAX_SQL_LENGTH = 100_000;

const HEADER = ['字段', '类型', '允许空', '默认', '说明'];

interface SqlParser {
  astify(sql: string, options?: { database?: string }): unknown;
  exprToSQL(expr: unknown, options?: { database?: string }): string;
}

let parserPromise: Promise<SqlParser> | undefined;

function loadParser(): Promise<SqlParser> {
  parserPromise ??= import('node-sql-parser/build/mysql.js').then((mod) => {
    // ESM sees the CommonJS exports under `default`; a CommonJS build (jest) sees them directly.
    const exports = mod as unknown as {
      Parser?: new () => SqlParser;
      default?: { Parser: new () => SqlParser };
    };
    const Parser = exports.Parser ?? exports.default?.Parser;
    if (!Parser) throw new Error('node-sql-parser did not export Parser');
    return new Parser();
  });
  return parserPromise;
}

interface ColumnDefinition {
  resource: 'column';
  column: { column: string | { expr?: { value?: string } } };
  definition: {
    dataType: string;
    length?: number;
    scale?: number | null;
    suffix?: string[] | null;
    expr?: unknown;
  };
  nullable?: { type: string };
  primary_key?: string;
  default_val?: { value: unknown };
  comment?: { value: { value?: unknown } | string };
}

interface CreateTable {
  type: 'create';
  keyword: 'table';
  table: Array<{ table: string }> | { table: string };
  create_definitions?: Array<{ resource?: string } & Partial<ColumnDefinition>>;
  table_options?: Array<{ keyword: string; value: unknown }> | null;
}

function unquote(text: string): string {
  const match = /^(['"`])([\s\S]*)\1$/.exec(text.trim());
  return match ? match[2] : text.trim();
}

/** A Markdown cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function columnName(def: ColumnDefinition): string {
  const column = def.column.column;
  return typeof column === 'string' ? column : String(column?.expr?.value ?? '');
}

function columnType(def: ColumnDefinition, parser: SqlParser): string {
  const d = def.definition;
  let type = d.dataType.toLowerCase();
  if (d.length !== undefined && d.length !== null)
    type += ` (${d.length}${d.scale !== undefined && d.scale !== null ? `,${d.scale}` : ''})`;
  else if (d.expr) type += ` ${parser.exprToSQL(d.expr, { database: 'MySQL' })}`;
  if (d.suffix?.length) type += ` ${d.suffix.join(' ').toLowerCase()}`;
  return type;
}

function columnDefault(def: ColumnDefinition, parser: SqlParser): string {
  if (!def.default_val) return '';
  const value = def.default_val.value as { type?: string; value?: unknown } | null;
  if (!value) return '';
  if (value.type === 'null') return 'NULL';
  if (
    value.type === 'single_quote_string' ||
    value.type === 'double_quote_string' ||
    value.type === 'number'
  )
    return String(value.value);
  try {
    return unquote(parser.exprToSQL(value, { database: 'MySQL' }));
  } catch {
    return '';
  }
}

function columnComment(def: ColumnDefinition): string {
  const comment = def.comment?.value;
  if (comment === undefined || comment === null) return '';
  return typeof comment === 'string' ? unquote(comment) : String(comment.value ?? '');
}

function tableMarkdown(statement: CreateTable, parser: SqlParser): string {
  const name = Array.isArray(statement.table) ? statement.table[0]?.table : statement.table.table;
  const commentOption = (statement.table_options ?? []).find(
    (o) => o.keyword.toLowerCase() === 'comment',
  );
  const tableComment = commentOption ? unquote(String(commentOption.value)) : '';
  const rows = [HEADER, HEADER.map(() => '---')];
  for (const def of statement.create_definitions ?? []) {
    if (def.resource !== 'column') continue;
    const column = def as ColumnDefinition;
    const notNull = column.nullable?.type === 'not null' || !!column.primary_key;
    rows.push([
      columnName(column),
      columnType(column, parser),
      notNull ? '否' : '是',
      columnDefault(column, parser),
      columnComment(column) || '-',
    ]);
  }
  const lines = rows.map((row) => `| ${row.map(cell).join(' | ')} |`);
  return `\n- ${cell(`${name ?? ''} ${tableComment}`.trim())}\n\n${lines.join('\n')}\n`;
}

/** The Markdown for every CREATE TABLE in `sql`; 10101 when there is none or it does not parse. */
export async function sqlToMarkdownTable(sql: string): Promise<string> {
  if (sql.trim() === '') throw new ApiError(10101, 'Please enter a CREATE TABLE statement');
  if (sql.length > MAX_SQL_LENGTH)
    throw new ApiError(10101, `The SQL must be at most ${MAX_SQL_LENGTH} characters`);
  const parser = await loadParser();
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'MySQL' });
  } catch {
    throw new ApiError(
      10101,
      'The SQL could not be parsed (a MySQL CREATE TABLE statement is expected)',
    );
  }
  const statements = (Array.isArray(ast) ? ast : [ast]) as Array<Partial<CreateTable>>;
  const tables = statements.filter(
    (s): s is CreateTable =>
      s?.type === 'create' && s.keyword === 'table' && !!s.create_definitions,
  );
  if (!tables.length) throw new ApiError(10101, 'No CREATE TABLE statement found');
  return tables.map((t) => tableMarkdown(t, parser)).join('');
}
