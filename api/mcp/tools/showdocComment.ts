/**
 * create_page_by_comment: ShowDoc's API comment format (`showdoc`, `@title`, `@url`, `@param name
 * required type description` …) turned into a page — ShowDoc's API-document Markdown for regular
 * items, the RunApi JSON for RunApi items (item_type 3).
 */

interface Field {
  name: string;
  required?: string;
  type: string;
  description: string;
}

function tag(content: string, name: string): string {
  const match = new RegExp(`@${name}\\s+(.+)`, 'i').exec(content);
  return match ? match[1].trim() : '';
}

function fields(content: string, name: string, withRequired: boolean): Field[] {
  const pattern = withRequired
    ? new RegExp(`@${name}\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(.+)`, 'gi')
    : new RegExp(`@${name}\\s+(\\S+)\\s+(\\S+)\\s+(.+)`, 'gi');
  return [...content.matchAll(pattern)].map((m) =>
    withRequired
      ? { name: m[1], required: m[2], type: m[3], description: m[4].trim() }
      : { name: m[1], type: m[2], description: m[3].trim() },
  );
}

const isRequired = (value = '') => /^(必选|required|yes|true|1)$/i.test(value);
const cell = (text: string) => text.replace(/\|/g, '\\|');

export interface CommentPage {
  title: string;
  catalog: string;
  number: number;
  content: string;
}

/** null when the comment has no `showdoc` marker or no @title. */
export function commentToPage(comment: string, itemType: number): CommentPage | null {
  if (!comment.includes('showdoc')) return null;
  const title = tag(comment, 'title');
  if (!title) return null;
  const info = {
    url: tag(comment, 'url'),
    method: (tag(comment, 'method') || 'GET').toUpperCase(),
    description: tag(comment, 'description'),
    remark: tag(comment, 'remark'),
    example: tag(comment, 'return'),
  };
  const params = fields(comment, 'param', true);
  const headers = fields(comment, 'header', true);
  const returns = fields(comment, 'return_param', false);
  const number = Number.parseInt(tag(comment, 'number'), 10);
  const base = { title, catalog: tag(comment, 'catalog'), number: number > 0 ? number : 99 };
  if (itemType === 3) {
    const row = (f: Field) => ({
      name: f.name,
      type: f.type,
      required: isRequired(f.required) ? 1 : 0,
      description: f.description,
    });
    return {
      ...base,
      content: JSON.stringify({
        info: {
          url: info.url,
          method: info.method,
          name: title,
          description: info.description,
          remark: info.remark,
        },
        request: { params: params.map(row), headers: headers.map(row), body: [] },
        response: {
          example: info.example,
          params: returns.map((f) => ({ name: f.name, type: f.type, description: f.description })),
        },
      }),
    };
  }
  const lines: string[] = [];
  if (info.description) lines.push('**Description:**', '', `- ${info.description}`, '');
  lines.push('**URL:**', '', `- \`${info.url}\``, '', '**Method:**', '', `- ${info.method}`, '');
  const table = (heading: string, rows: Field[]) => {
    if (!rows.length) return;
    lines.push(
      `**${heading}:**`,
      '',
      '| Name | Required | Type | Description |',
      '| :--- | :--- | :--- | :--- |',
    );
    for (const f of rows)
      lines.push(
        `| ${cell(f.name)} | ${isRequired(f.required) ? 'yes' : 'no'} | ${cell(f.type)} | ${cell(f.description)} |`,
      );
    lines.push('');
  };
  table('Headers', headers);
  table('Parameters', params);
  if (info.example) lines.push('**Response example**', '', '```', info.example, '```', '');
  if (returns.length) {
    lines.push(
      '**Response fields**',
      '',
      '| Name | Type | Description |',
      '| :--- | :--- | :--- |',
    );
    for (const f of returns)
      lines.push(`| ${cell(f.name)} | ${cell(f.type)} | ${cell(f.description)} |`);
    lines.push('');
  }
  if (info.remark) lines.push('**Remarks**', '', `- ${info.remark}`, '');
  return { ...base, content: lines.join('\n') };
}
