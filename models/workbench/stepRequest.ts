/**
 * A flow step's request: read from a RunApi API page (JSON with `info.url`, `info.method`,
 * `request.headers` / `query` / `pathVariable` / `params` {mode, json, urlencoded, formdata}),
 * or a page in ShowDoc's Markdown API template (its URL and method sections, models/workbench/
 * pageExamples.ts), the item's global parameters added where the page does not set the same name,
 * then `{{name}}` filled in from the run's variables everywhere (URL, query, headers, body). Names
 * with no value are left as written, so the answer shows what was missing.
 */
import type { RelayInput } from '../assistants';
import type { GlobalParams } from './environments';
import { markdownRequest } from './pageExamples';
import type { StepDraft, StepRow } from './stepDraft';

export interface Extraction {
  var: string;
  path: string;
}

type Row = StepRow;

export type { StepDraft } from './stepDraft';

const text = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** RunApi rows `{name, value, disable}` (or `enable: 0`); the disabled and nameless dropped. */
function rows(list: unknown): Row[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .filter(
      (p) => text(p.name) !== '' && !(Number(p.disable) >= 1) && p.enable !== 0 && p.enable !== '0',
    )
    .map((p) => ({ name: text(p.name), value: text(p.value) }));
}

function withGlobals(own: Row[], global: unknown, caseless = false): Row[] {
  const key = (name: string) => (caseless ? name.toLowerCase() : name);
  const names = new Set(own.map((r) => key(r.name)));
  return [...own, ...rows(global).filter((r) => !names.has(key(r.name)))];
}

/** The step's request, or null when the page is no API document (RunApi or Markdown). */
export function stepRequest(content: string, globals: GlobalParams | null): StepDraft | null {
  let doc: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(content.trim());
    if (!parsed || typeof parsed !== 'object') return null;
    doc = parsed as Record<string, unknown>;
  } catch {
    return withMarkdownGlobals(markdownRequest(content), globals);
  }
  const info = doc.info as Record<string, unknown> | undefined;
  if (!info || typeof info.url !== 'string' || info.url.trim() === '') return null;
  const request = (doc.request ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  let url = info.url.trim();
  for (const v of rows(request.pathVariable))
    url = url
      .split(`{${v.name}}`)
      .join(v.value)
      .replace(new RegExp(`:${v.name.replace(/\W/g, '')}(?=/|$|\\?)`, 'g'), v.value);
  const mode = text(params.mode) === 'json' ? 'json' : 'form';
  const ownFields =
    text(params.mode) === 'urlencoded' ? rows(params.urlencoded) : rows(params.formdata);
  return {
    method: (text(info.method) || 'GET').toUpperCase(),
    url,
    query: withGlobals(rows(request.query), globals?.query),
    headers: withGlobals(rows(request.headers), globals?.header, true),
    mode,
    fields: mode === 'form' ? withGlobals(ownFields, globals?.body) : [],
    text: mode === 'json' ? text(params.json) : '',
  };
}

/** A Markdown page's request takes the item's global parameters as a RunApi page does. */
function withMarkdownGlobals(
  draft: StepDraft | null,
  globals: GlobalParams | null,
): StepDraft | null {
  if (!draft) return null;
  return {
    ...draft,
    query: withGlobals([], globals?.query),
    headers: withGlobals([], globals?.header, true),
    fields: withGlobals([], globals?.body),
  };
}

/** `{{ name }}` → the variable's value; unknown names stay as written. */
export function fill(template: string, variables: Record<string, string>): string {
  return template.replace(/\{\{\s*([\w.$-]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : whole,
  );
}

/** The draft with variables filled in, as the relay sends it. */
export function substitute(draft: StepDraft, variables: Record<string, string>): RelayInput {
  const f = (s: string) => fill(s, variables);
  let url = f(draft.url);
  const query = draft.query.map((r) => [f(r.name), f(r.value)]);
  if (query.length) {
    const search = new URLSearchParams(query).toString();
    url += (url.includes('?') ? '&' : '?') + search;
  }
  const headers: [string, string][] = draft.headers.map((r) => [f(r.name).trim(), f(r.value)]);
  const hasType = () => headers.some(([name]) => name.toLowerCase() === 'content-type');
  let body = '';
  if (draft.method !== 'GET' && draft.method !== 'HEAD') {
    if (draft.mode === 'json' && draft.text !== '') {
      body = f(draft.text);
      if (!hasType()) headers.push(['Content-Type', 'application/json']);
    } else if (draft.mode === 'form' && draft.fields.length) {
      body = new URLSearchParams(draft.fields.map((r) => [f(r.name), f(r.value)])).toString();
      if (!hasType()) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    }
  }
  return { method: draft.method, url, headers, body };
}
