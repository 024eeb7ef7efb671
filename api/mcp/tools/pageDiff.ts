/**
 * update_page_diff's replacements (ShowDoc's format): 1-20 `{old_text, new_text}` pairs; each
 * old_text must occur exactly once in the current text, and no two may overlap. All apply or
 * none (the error says which one failed and shows where similar text is).
 */
import { MCP_ERRORS, McpToolError } from '../toolkit';

export interface TextDiff {
  old_text: string;
  new_text: string;
}

const MAX_DIFFS = 20;

const invalid = (message: string) => new McpToolError(MCP_ERRORS.INVALID_PARAMS, message);

export function parseDiffs(raw: unknown): TextDiff[] {
  if (!Array.isArray(raw) || !raw.length) throw invalid('diffs must be a non-empty array');
  if (raw.length > MAX_DIFFS) throw invalid(`diffs holds at most ${MAX_DIFFS} entries`);
  const diffs = raw.map((entry, i) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw invalid(`diffs[${i}] must be an object`);
    const { old_text: oldText, new_text: newText } = entry as Record<string, unknown>;
    if (typeof oldText !== 'string' || oldText === '')
      throw invalid(`diffs[${i}].old_text must be a non-empty string`);
    if (typeof newText !== 'string') throw invalid(`diffs[${i}].new_text must be a string`);
    return { old_text: oldText, new_text: newText };
  });
  for (let i = 0; i < diffs.length; i++)
    for (let j = i + 1; j < diffs.length; j++) {
      const a = diffs[i].old_text;
      const b = diffs[j].old_text;
      if (a.includes(b) || b.includes(a))
        throw invalid(
          `diffs[${i}].old_text and diffs[${j}].old_text overlap: the order of replacement is ambiguous`,
        );
    }
  return diffs;
}

function occurrences(text: string, fragment: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + fragment.length))
    found.push(at);
  return found;
}

/** Where text like `oldText` is (its first 20, then 10 characters), to help the agent retry. */
function similarContext(content: string, oldText: string) {
  for (const [type, length] of [
    ['similar_prefix', 20],
    ['similar_short_prefix', 10],
  ] as const) {
    const prefix = oldText.slice(0, length);
    const at = prefix ? content.indexOf(prefix) : -1;
    if (at >= 0)
      return [
        {
          type,
          position: at,
          text: content.slice(Math.max(0, at - 100), at + prefix.length + 100),
        },
      ];
  }
  return [
    {
      type: 'no_similarity_found',
      content_length: content.length,
      old_text_length: oldText.length,
      content_start: content.slice(0, 100),
      content_end: content.length > 100 ? content.slice(-100) : '',
    },
  ];
}

/** The text after every replacement, each applied where it matched in the text before it. */
export function applyDiffs(content: string, diffs: TextDiff[]): string {
  let current = content;
  diffs.forEach((diff, i) => {
    const found = occurrences(current, diff.old_text);
    if (!found.length)
      throw new McpToolError(
        MCP_ERRORS.OPERATION_FAILED,
        `diffs[${i}] did not match: old_text is not in the current page content exactly; nothing was changed`,
        {
          error_type: 'diff_match_failed',
          diff_index: i,
          old_text_preview: diff.old_text.slice(0, 200) + (diff.old_text.length > 200 ? '...' : ''),
          context: similarContext(current, diff.old_text),
          suggestion:
            'Fetch the latest content with get_page and copy old_text exactly (spaces, line breaks, letter case)',
        },
      );
    if (found.length > 1)
      throw new McpToolError(
        MCP_ERRORS.OPERATION_FAILED,
        `diffs[${i}] is ambiguous: old_text occurs ${found.length} times in the page`,
        {
          error_type: 'diff_not_unique',
          diff_index: i,
          occurrence_count: found.length,
          occurrences: found.map((position) => ({
            position,
            context: current.slice(
              Math.max(0, position - 30),
              position + diff.old_text.length + 30,
            ),
          })),
          suggestion: 'Use a longer, more specific old_text',
        },
      );
    const at = found[0];
    current = current.slice(0, at) + diff.new_text + current.slice(at + diff.old_text.length);
  });
  return current;
}
