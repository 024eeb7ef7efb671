/**
 * `{{name}}` in the HTTP test tool's request: the item's variables (unbound ones, then the chosen
 * environment's, which win) filled into the URL, query, headers and body, and into the global
 * parameters the request picks up. Names with no value stay as written, so the answer shows what
 * was missing. Pure functions: no React, no network.
 */
import type { GlobalParams, HttpTestRequest, KeyValue } from '../editor/assets/httpTestRequest';

export interface VariableRow {
  var_name: string;
  var_value: string;
  env_id: number;
}

/** The values in force for an environment (0 = none chosen: unbound variables only). */
export function variablesFor(rows: VariableRow[], envId: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows) if (row.env_id === 0) out[row.var_name] = row.var_value;
  if (envId > 0)
    for (const row of rows) if (row.env_id === envId) out[row.var_name] = row.var_value;
  return out;
}

export function fill(template: string, variables: Record<string, string>): string {
  return template.replace(/\{\{\s*([\w.$-]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : whole,
  );
}

const fillRows = (rows: KeyValue[], v: Record<string, string>) =>
  rows.map((row) => ({ ...row, name: fill(row.name, v), value: fill(row.value, v) }));

export function fillRequest(request: HttpTestRequest, v: Record<string, string>): HttpTestRequest {
  return {
    ...request,
    url: fill(request.url, v),
    query: fillRows(request.query, v),
    headers: fillRows(request.headers, v),
    bodyFields: fillRows(request.bodyFields, v),
    bodyText: fill(request.bodyText, v),
  };
}

function fillList(list: unknown, v: Record<string, string>): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((row: unknown) => {
    if (!row || typeof row !== 'object') return row;
    const r = row as Record<string, unknown>;
    return {
      ...r,
      name: typeof r.name === 'string' ? fill(r.name, v) : r.name,
      value: typeof r.value === 'string' ? fill(r.value, v) : r.value,
    };
  });
}

export function fillGlobals(
  global: GlobalParams | null,
  v: Record<string, string>,
): GlobalParams | null {
  if (!global) return null;
  return {
    query: fillList(global.query, v),
    body: fillList(global.body, v),
    header: fillList(global.header, v),
  };
}

/** How many `{{name}}` the text uses that have no value. */
export function unresolved(text: string, v: Record<string, string>): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([\w.$-]+)\s*\}\}/g))
    if (!Object.prototype.hasOwnProperty.call(v, match[1])) names.add(match[1]);
  return [...names];
}
