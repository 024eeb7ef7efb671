/**
 * API pages written in ShowDoc's Markdown API template (the editor's "API" template, in any of
 * the 13 languages): the request a flow step sends (the URL and method sections), and the page
 * with a run's answer put into its response example section — the template's fenced block under
 * "返回示例" / "Return example" / "Beispielantwort"…, or RunApi JSON's `response.responseExample`.
 */
import type { StepDraft } from './stepDraft';

/** A heading line (`##### …` or a bold `**…**` label) reduced to its words, lower case. */
function headingText(line: string): string | null {
  if (!/^\s*(#{1,6}\s|\*\*[^*]+\*\*\s*[:：]?\s*$)/.test(line)) return null;
  return line
    .replace(/[#*：:]/g, '')
    .trim()
    .toLowerCase();
}

const URL_HEADING = /url|请求地址|接口地址/;
const METHOD_HEADING =
  /^(请求方式|请求方法|method|methode|método|méthode|metódus|metodo|リクエストメソッド|요청 방식|metoda|метод|yöntem)$/;
// "成功返回示例" (RunApi's Markdown) counts; its "…的参数说明" (the fields table) does not.
const EXAMPLE_HEADING =
  /返回示例|response example|return example|beispielantwort|ejemplo de respuesta|exemple de réponse|válaszpélda|esempio di risposta|レスポンス例|반환 예시|przykładowa odpowiedź|exemplo de resposta|пример ответа|yanıt örneği/;
const NOT_EXAMPLE = /参数|失败|fail|field|param|説明|설명/;

/** Line ranges [heading, next heading) of the sections whose heading matches. */
function sections(lines: string[], match: (heading: string) => boolean): [number, number][] {
  const found: [number, number][] = [];
  let open = -1;
  lines.forEach((line, index) => {
    const heading = headingText(line);
    if (heading === null) return;
    if (open >= 0) found.push([open, index]);
    open = match(heading) ? index : -1;
  });
  if (open >= 0) found.push([open, lines.length]);
  return found;
}

function sectionText(lines: string[], match: (heading: string) => boolean): string {
  const [range] = sections(lines, match);
  return range ? lines.slice(range[0] + 1, range[1]).join('\n') : '';
}

/** The request of a Markdown API page (URL may start with `{{host}}`), or null. */
export function markdownRequest(content: string): StepDraft | null {
  const lines = content.split(/\r?\n/);
  const urlText = sectionText(lines, (h) => URL_HEADING.test(h));
  const url = /(?:https?:\/\/|\{\{)[^\s`'"<>|)]+/.exec(urlText)?.[0];
  if (!url) return null;
  const methodText = sectionText(lines, (h) => METHOD_HEADING.test(h));
  const method = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/i.exec(methodText)?.[1] ?? 'GET';
  return {
    method: method.toUpperCase(),
    url,
    query: [],
    headers: [],
    mode: 'form',
    fields: [],
    text: '',
  };
}

/** The body pretty-printed when it is JSON, else as it came. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function runApiWithExample(doc: Record<string, unknown>, body: string): string {
  const response =
    doc.response && typeof doc.response === 'object'
      ? (doc.response as Record<string, unknown>)
      : {};
  return JSON.stringify({ ...doc, response: { ...response, responseExample: pretty(body) } });
}

function markdownWithExample(content: string, body: string): string | null {
  const lines = content.split(/\r?\n/);
  const [range] = sections(lines, (h) => EXAMPLE_HEADING.test(h) && !NOT_EXAMPLE.test(h));
  if (!range) return null;
  const [start, end] = range;
  const block = ['```', ...pretty(body).split('\n'), '```'];
  const open = lines.findIndex((line, i) => i > start && i < end && /^\s*```/.test(line));
  const close =
    open < 0 ? -1 : lines.findIndex((line, i) => i > open && i < end && /^\s*```\s*$/.test(line));
  // The fence's language (```json) is kept; a section without a block gets one under its heading.
  if (open >= 0 && close > open)
    lines.splice(open, close - open + 1, lines[open], ...block.slice(1));
  else lines.splice(start + 1, 0, '', ...block);
  return lines.join('\n');
}

/**
 * The page's content with `body` as its response example; null when the page has no place for
 * one (neither a RunApi document nor a Markdown page with a response example section).
 */
export function withResponseExample(content: string, body: string): string | null {
  const trimmed = content.trim();
  if (trimmed.startsWith('{')) {
    try {
      const doc: unknown = JSON.parse(trimmed);
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
        const info = (doc as { info?: { url?: unknown } }).info;
        if (info && typeof info.url === 'string')
          return runApiWithExample(doc as Record<string, unknown>, body);
      }
    } catch {
      // Markdown that starts with a brace.
    }
  }
  return markdownWithExample(content, body);
}
