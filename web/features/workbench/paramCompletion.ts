/**
 * Suggestions from the item's parameter library while typing a parameter name in a Markdown API
 * table (`|参数名|必选|类型|说明|` and the like): typing in a row's first cell offers the library's
 * names; picking one fills the row's type and description columns (when the rest of the row is
 * still empty) and counts the use (`paramDescLib/updateUsage`).
 */
import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { countUsage, type LibraryEntry, suggestEntries } from './workbenchApi';

const NAME = /^(参数名|参数|字段|字段名|name|parameter|param|field|名称)$/i;
const TYPE = /^(类型|type)$/i;
const DESC = /^(说明|描述|备注|含义|description|desc|remark|comment)$/i;

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/** The header cells of the table the line belongs to, when its first column names parameters. */
export function tableHeader(lines: string[], lineIndex: number): string[] | null {
  for (let i = lineIndex - 1; i > 0; i--) {
    if (!lines[i].includes('|')) return null;
    if (/^\s*\|?\s*:?-{2,}/.test(lines[i])) {
      const header = cells(lines[i - 1]);
      return NAME.test(header[0] ?? '') ? header : null;
    }
  }
  return null;
}

/** The row a picked entry becomes: name, then the type and description where the header has them. */
export function rowFor(
  header: string[],
  entry: { name: string; type: string; description: string },
) {
  const row = header.map((h, index) => {
    if (index === 0) return entry.name;
    if (TYPE.test(h)) return entry.type;
    if (DESC.test(h)) return entry.description.replace(/\|/g, '\\|');
    return ' ';
  });
  return `${row.join('|')}|`;
}

export function paramCompletionSource(itemId: number): CompletionSource {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const typed = /^\s*\|\s*([\w.$[\]-]*)$/.exec(before);
    if (!typed) return null;
    const word = typed[1];
    if (!word && !context.explicit) return null;
    const lines = context.state.doc.toString().split('\n');
    const header = tableHeader(lines, line.number - 1);
    if (!header) return null;
    let entries: LibraryEntry[];
    try {
      entries = await suggestEntries(itemId, word);
    } catch {
      return null;
    }
    const lower = word.toLowerCase();
    const matching = entries.filter((e) => e.name.toLowerCase().includes(lower));
    if (matching.length === 0) return null;
    const options: Completion[] = matching.map((entry) => ({
      label: entry.name,
      detail: entry.type,
      info: entry.description,
      type: 'property',
      apply: (view: EditorView, _completion: Completion, from: number, to: number) => {
        // The line as it is now: the user may have typed on while the suggestions loaded.
        const current = view.state.doc.lineAt(from);
        const restEmpty = current.text.slice(to - current.from).trim() === '';
        const text = restEmpty ? rowFor(header, entry) : entry.name;
        const end = restEmpty ? current.to : to;
        view.dispatch({
          changes: { from, to: end, insert: text },
          selection: { anchor: from + text.length },
          userEvent: 'input.complete',
        });
        void countUsage(entry.id).catch(() => {});
      },
    }));
    return { from: context.pos - word.length, options, validFor: /^[\w.$[\]-]*$/ };
  };
}
