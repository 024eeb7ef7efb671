/**
 * ShowDoc's API-document page formats, as its server writes them (`Convert::runapiToMd`): the
 * RunApi JSON a RunApi item stores, and the Markdown other items get from it. Imports (Postman,
 * Swagger, code comments) all produce RunApi JSON first and convert it here, so every source
 * yields the same page layout a ShowDoc user knows.
 */
import { isWithinDepth } from '../platform';

export interface RunApiParam {
  name: string;
  require?: string;
  type?: string;
  value?: string;
  remark?: string;
  disable?: number | string;
}

export interface RunApiDoc {
  info: {
    from?: string;
    type?: string;
    title?: string | false;
    description?: string | false;
    method?: string;
    url?: string | false;
    remark?: string | false;
    apiStatus?: string | number;
  };
  request: {
    params: {
      mode: string;
      json?: string;
      jsonDesc?: RunApiParam[];
      urlencoded?: RunApiParam[];
      formdata?: RunApiParam[];
      [mode: string]: unknown;
    };
    headers: RunApiParam[];
    query: RunApiParam[];
    pathVariable?: RunApiParam[];
    cookies?: unknown[];
    auth?: unknown;
  };
  response: {
    responseExample?: string | false;
    responseParamsDesc?: RunApiParam[];
    responseFailExample?: string;
    responseFailParamsDesc?: RunApiParam[];
  };
  extend?: unknown;
}

/** PHP `json_encode` with JSON_UNESCAPED_UNICODE: compact, `/` escaped. */
export function phpJson(value: unknown, pretty = false): string {
  return JSON.stringify(value, null, pretty ? 4 : undefined).replace(/\//g, '\\/');
}

/** ShowDoc's `indentJson`: pretty JSON when the text parses, the text itself otherwise. */
export function indentJson(text: unknown): string {
  if (typeof text !== 'string') return phpJson(text, true);
  try {
    const parsed: unknown = JSON.parse(text);
    // Re-indenting recurses (JSON.stringify): a page nested past the input bound stays as written.
    if (parsed !== null && isWithinDepth(parsed)) return phpJson(parsed, true);
  } catch {
    // not JSON: shown as written
  }
  return text;
}

/** PHP string interpolation: false/null read as empty. */
function s(value: unknown): string {
  if (value === false || value === null || value === undefined) return '';
  return String(value);
}

/** PHP `!empty()`. */
function filled(value: unknown): boolean {
  return !(
    value === undefined ||
    value === null ||
    value === false ||
    value === '' ||
    value === 0 ||
    value === '0' ||
    (Array.isArray(value) && value.length === 0)
  );
}

function rows(list: unknown): RunApiParam[] {
  return Array.isArray(list) ? (list as RunApiParam[]) : [];
}

function active(p: RunApiParam): boolean {
  return filled(p.name) && !(filled(p.disable) && Number(p.disable) >= 1);
}

const STATUS: Record<string, string> = {
  '1': '开发中',
  '2': '测试中',
  '3': '已完成',
  '4': '需修改',
  '5': '已废弃',
};

/** RunApi JSON (text or parsed) → ShowDoc's Markdown page; null without `info.url`. */
export function runapiToMarkdown(input: string | RunApiDoc): string | null {
  let doc: RunApiDoc;
  try {
    doc = typeof input === 'string' ? (JSON.parse(input) as RunApiDoc) : input;
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object' || !doc.info || !filled(doc.info.url)) return null;
  // Rendering walks and re-serialises the document: one nested past the bound is shown as text.
  if (!isWithinDepth(doc)) return null;
  const request = doc.request ?? { params: { mode: '' }, headers: [], query: [] };
  const params = request.params ?? { mode: '' };
  let query = rows(request.query);
  const mode = s(params.mode);
  let body = mode ? rows(params[mode]) : [];
  if (doc.info.method === 'get' && !query.length && mode && body.length) {
    query = body;
    body = [];
  }

  let out = `\n##### 简要描述\n\n- ${s(doc.info.description ?? '无')}`;
  const status = STATUS[s(doc.info.apiStatus)];
  if (filled(doc.info.apiStatus) && status) out += `\n\n##### 接口状态\n\n - ${status}`;
  let url = s(doc.info.url);
  if (query.length && filled(query[0].name)) url = url.split('?')[0];
  out += `\n\n##### 请求URL\n\n - \`${url}\` \n\n##### 请求方式\n\n- ${s(doc.info.method)}\n`;

  const pathVariable = rows(request.pathVariable);
  if (pathVariable.length && filled(pathVariable[0].name)) {
    out += ' \n##### 路径变量\n\n|变量名|必选|类型|说明|\n|:-----  |:-----|-----|-----|\n';
    for (const v of pathVariable.filter(active))
      out += `|${v.name}|  ${filled(v.require) ? '是' : '否'} |  ${s(v.type)} |  ${s(v.remark ?? '无')} | \n`;
  }
  const headers = rows(request.headers);
  if (headers.length && filled(headers[0].name)) {
    out +=
      ' \n##### Header \n\n|字段名|示例值|必选|类型|说明|\n|:-----  |:-----|-----|-----|-----|\n';
    for (const h of headers.filter(active))
      out += `|${h.name}|  ${s(h.value)} |  ${filled(h.require) ? '是' : '否'} |  ${s(h.type)} |  ${s(h.remark ?? '无')} | \n`;
  }
  if (query.length && filled(query[0].name)) {
    out +=
      ' \n##### 请求Query参数\n\n|参数名|示例值|必选|类型|说明|\n|:-----  |:-----|-----|-----|-----|\n';
    for (const q of query.filter(active))
      out += `|${q.name}|  ${s(q.value)}|  ${filled(q.require) ? '是' : '否'} |  ${s(q.type)} |  ${s(q.remark ?? '无')} | \n`;
  }
  if (body.length && filled(body[0].name)) {
    out +=
      ' \n##### 请求Body参数\n\n|参数名|示例值|必选|类型|说明|\n|:-----  |:-----|-----|-----|-----|\n';
    for (const p of body.filter(active))
      out += `|${p.name}|  ${s(p.value)} |  ${filled(p.require) ? '是' : '否'} |  ${s(p.type)} |  ${s(p.remark ?? '无')} | \n`;
  }
  const json = mode === 'json' ? params.json : undefined;
  if (mode === 'json' && filled(json))
    out += ` \n##### 请求参数示例  \n\`\`\`\n${indentJson(json)}\n\n\`\`\` \n`;
  const jsonDesc = rows(params.jsonDesc);
  if (mode === 'json' && jsonDesc.length && filled(jsonDesc[0].name)) {
    out += ' \n##### json字段说明\n\n|字段名|必选|类型|说明|\n|:-----  |:-----|-----|-----|\n';
    for (const j of jsonDesc.filter(active))
      out += `|${j.name}|  ${filled(j.require) ? '是' : '否'} |  ${s(j.type)} |  ${s(j.remark ?? '无')} | \n`;
  }
  const response = doc.response ?? {};
  if (filled(response.responseExample))
    out += ` \n##### 成功返回示例  \n\`\`\`\n${indentJson(response.responseExample)}\n\n\`\`\` \n`;
  const success = rows(response.responseParamsDesc);
  if (success.length && filled(success[0].name)) {
    out += ' \n##### 成功返回示例的参数说明 \n\n|参数名|类型|说明|\n|:-----  |:-----|-----|\n';
    for (const r of success) out += `|${r.name}| ${s(r.type)} |  ${s(r.remark ?? '无')} | \n`;
  }
  if (filled(response.responseFailExample))
    out += ` \n##### 失败返回示例  \n\`\`\`\n${indentJson(response.responseFailExample)}\n\n\`\`\` \n`;
  const failure = rows(response.responseFailParamsDesc);
  if (failure.length && filled(failure[0].name)) {
    out += ' \n##### 失败返回示例的参数说明 \n|参数名|类型|说明|\n|:-----  |:-----|-----|\n';
    for (const r of failure) out += `|${r.name}| ${s(r.type)} |  ${s(r.remark ?? '无')} | \n`;
  }
  if (filled(doc.info.remark)) out += ` \n##### 备注 \n ${s(doc.info.remark)}\n`;
  return out;
}

/** An empty RunApi document for one operation (the shape ShowDoc's importers fill in). */
export function emptyRunApiDoc(): RunApiDoc {
  return {
    info: {
      from: 'runapi',
      type: 'api',
      title: '',
      description: '',
      method: 'get',
      url: '',
      remark: '',
    },
    request: {
      params: { mode: 'formdata', json: '', urlencoded: [], formdata: [] },
      headers: [],
      query: [],
      cookies: [],
      auth: [],
    },
    response: { responseExample: '', responseParamsDesc: [] },
    extend: [],
  };
}
