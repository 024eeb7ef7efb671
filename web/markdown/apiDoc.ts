/**
 * ShowDoc's API-document pages (reference pages §11): a page whose content is RunApi JSON with an
 * `info.url` is shown as a generated Markdown document — level-5 headings in the fixed order of
 * §11.2 (description, status, URL, method, path variables, headers, query, body, success and
 * failure examples with their field tables, remark). Disabled parameters are left out, "required"
 * reads yes/no, an empty remark reads as "none". For GET the body parameters are shown as the
 * query when no query list exists, and the query string is cut from the URL when one does. The
 * item's global parameters (RunApi items) are listed first.
 *
 * Labels are passed in (the reader translates them); English is the default.
 */
export interface ApiDocLabels {
  description: string;
  status: string;
  url: string;
  method: string;
  pathVariables: string;
  headers: string;
  query: string;
  body: string;
  bodyFields: string;
  successExample: string;
  successParams: string;
  failureExample: string;
  failureParams: string;
  remark: string;
  protocol: string;
  name: string;
  example: string;
  required: string;
  type: string;
  yes: string;
  no: string;
  none: string;
  /** apiStatus 1–5 */
  statuses: Record<string, string>;
}

export const ENGLISH_API_LABELS: ApiDocLabels = {
  description: 'Description',
  status: 'Status',
  url: 'Request URL',
  method: 'Method',
  pathVariables: 'Path variables',
  headers: 'Headers',
  query: 'Query parameters',
  body: 'Body parameters',
  bodyFields: 'Body fields',
  successExample: 'Success response example',
  successParams: 'Success response fields',
  failureExample: 'Failure response example',
  failureParams: 'Failure response fields',
  remark: 'Remark',
  protocol: 'Protocol',
  name: 'Name',
  example: 'Example',
  required: 'Required',
  type: 'Type',
  yes: 'yes',
  no: 'no',
  none: 'none',
  statuses: {
    '1': 'In development',
    '2': 'In testing',
    '3': 'Completed',
    '4': 'Needs change',
    '5': 'Deprecated',
  },
};

interface Param {
  name?: unknown;
  value?: unknown;
  type?: unknown;
  require?: unknown;
  remark?: unknown;
  disable?: unknown;
}

interface ApiDoc {
  info: {
    url: string;
    method?: unknown;
    type?: unknown;
    title?: unknown;
    description?: unknown;
    remark?: unknown;
    apiStatus?: unknown;
  };
  request?: {
    params?: {
      mode?: unknown;
      formdata?: unknown;
      urlencoded?: unknown;
      json?: unknown;
      jsonDesc?: unknown;
    };
    query?: unknown;
    headers?: unknown;
    pathVariable?: unknown;
  };
  response?: {
    responseExample?: unknown;
    responseParamsDesc?: unknown;
    responseFailExample?: unknown;
    responseFailParamsDesc?: unknown;
  };
}

export interface GlobalParams {
  query?: unknown;
  body?: unknown;
  header?: unknown;
}

/** The API document in `content` (raw, un-escaped), or null when it is ordinary Markdown. */
export function parseApiDoc(content: string): ApiDoc | null {
  const text = content.trim();
  if (!text.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object') return null;
    const info = (parsed as { info?: unknown }).info;
    if (!info || typeof info !== 'object') return null;
    const url = (info as { url?: unknown }).url;
    if (typeof url !== 'string' || url === '') return null;
    return parsed as ApiDoc;
  } catch {
    return null;
  }
}

const str = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** A table cell: no line breaks or pipes that would end it. */
function cell(value: unknown): string {
  return str(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').trim();
}

function active(list: unknown): Param[] {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (p): p is Param =>
      !!p &&
      typeof p === 'object' &&
      str((p as Param).name) !== '' &&
      !(Number((p as Param).disable) >= 1),
  );
}

function table(headers: string[], rows: string[][]): string {
  return [
    `|${headers.join('|')}|`,
    `|${headers.map(() => ':---').join('|')}|`,
    ...rows.map((r) => `|${r.join('|')}|`),
  ].join('\n');
}

function paramTable(params: Param[], labels: ApiDocLabels, withExample: boolean): string {
  const headers = withExample
    ? [labels.name, labels.example, labels.required, labels.type, labels.remark]
    : [labels.name, labels.required, labels.type, labels.remark];
  return table(
    headers,
    params.map((p) => {
      const row = [cell(p.name)];
      if (withExample) row.push(cell(p.value));
      row.push(
        str(p.require) === '1' ? labels.yes : labels.no,
        cell(p.type),
        cell(p.remark) || labels.none,
      );
      return row;
    }),
  );
}

function fieldTable(fields: unknown, labels: ApiDocLabels): string {
  const rows = active(fields);
  if (rows.length === 0) return '';
  return table(
    [labels.name, labels.type, labels.remark],
    rows.map((p) => [cell(p.name), cell(p.type), cell(p.remark) || labels.none]),
  );
}

/** Pretty JSON when it parses, else the text as written; fenced so it highlights. */
function example(text: unknown): string {
  const raw = str(text);
  if (raw.trim() === '') return '';
  let body = raw;
  let language = 'json';
  try {
    body = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    language = '';
  }
  const fence = body.includes('```') ? '~~~~' : '```';
  return `${fence}${language}\n${body}\n${fence}`;
}

export function apiDocToMarkdown(
  doc: ApiDoc,
  labels: ApiDocLabels = ENGLISH_API_LABELS,
  globals: GlobalParams = {},
): string {
  const out: string[] = [];
  const section = (title: string, body: string) => {
    if (body.trim() !== '') out.push(`##### ${title}\n\n${body}`);
  };
  const info = doc.info;
  const kind = str(info.type) || 'api';
  const method = (str(info.method) || 'get').toUpperCase();
  const request = doc.request ?? {};
  const params = request.params ?? {};
  const mode = str(params.mode) || 'formdata';
  const bodyParams =
    mode === 'json' ? [] : active(mode === 'urlencoded' ? params.urlencoded : params.formdata);
  let query = [...active(globals.query), ...active(request.query)];
  let body = [...active(globals.body), ...bodyParams];
  let url = info.url;

  section(labels.description, str(info.description));
  if (kind !== 'api') {
    section(labels.protocol, kind.toUpperCase());
    section(labels.url, `\`${url}\``);
    section(labels.remark, str(info.remark));
    return out.join('\n\n');
  }
  const status = str(info.apiStatus);
  if (status && status !== '0') section(labels.status, labels.statuses[status] ?? status);
  if (method === 'GET') {
    if (active(request.query).length === 0) {
      query = [...query, ...body];
      body = [];
    } else url = url.split('?')[0];
  }
  section(labels.url, `\`${url}\``);
  section(labels.method, method);
  const pathVariables = active(request.pathVariable);
  if (pathVariables.length) section(labels.pathVariables, paramTable(pathVariables, labels, false));
  const headers = [...active(globals.header), ...active(request.headers)];
  if (headers.length) section(labels.headers, paramTable(headers, labels, true));
  if (query.length) section(labels.query, paramTable(query, labels, false));
  if (mode === 'json' && str(params.json).trim()) {
    const fields = fieldTable(params.jsonDesc, labels);
    section(labels.body, example(params.json) + (fields ? `\n\n${fields}` : ''));
  } else if (body.length) section(labels.body, paramTable(body, labels, false));
  const response = doc.response ?? {};
  section(labels.successExample, example(response.responseExample));
  section(labels.successParams, fieldTable(response.responseParamsDesc, labels));
  section(labels.failureExample, example(response.responseFailExample));
  section(labels.failureParams, fieldTable(response.responseFailParamsDesc, labels));
  section(labels.remark, str(info.remark));
  return out.join('\n\n');
}

/** Page content as Markdown: API documents converted, everything else as written. */
export function pageMarkdown(
  content: string,
  labels?: ApiDocLabels,
  globals?: GlobalParams,
): string {
  const doc = parseApiDoc(content);
  return doc ? apiDocToMarkdown(doc, labels, globals) : content;
}
