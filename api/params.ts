/**
 * Reading request parameters the ShowDoc way (reference accounts §0.2): each name is looked up in
 * the path key/value segments, then the body (form or JSON), then the query string, and coerced to
 * the type the handler expects. Strings never accept objects or arrays, so a JSON body such as
 * `{"username": {"$ne": ""}}` is refused instead of reaching a database filter.
 */
import type { ZodType } from 'zod';
import { type ApiError, errors } from '../models/platform';
import {
  ID_SELECTORS,
  isIdName,
  parseList,
  readBool,
  readId,
  readInt,
  readStr,
} from './contracts/coerce';

export interface ParamSources {
  path: Record<string, unknown>;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  /** True when the body was JSON (some params, like `_item_pwd`, are read from forms only). */
  bodyIsJson: boolean;
}

export interface LookupOptions {
  /** false: ignore a JSON body for this name (ShowDoc reads `_item_pwd` only from query/form). */
  jsonBody?: boolean;
}

function invalid(name: string): ApiError {
  return errors.badParam(name);
}

function fail(error: ApiError): never {
  throw error;
}

export class Params {
  constructor(private readonly sources: ParamSources) {}

  /** The raw (sanitised) value by precedence path → body → query; undefined when absent. */
  value(name: string, options: LookupOptions = {}): unknown {
    const { path, body, query, bodyIsJson } = this.sources;
    const order = [path, bodyIsJson && options.jsonBody === false ? undefined : body, query];
    for (const source of order) {
      if (source && Object.hasOwn(source, name)) {
        const value = source[name];
        if (value !== undefined && value !== null) return value;
      }
    }
    return undefined;
  }

  has(name: string, options: LookupOptions = {}): boolean {
    return this.value(name, options) !== undefined;
  }

  /** A string parameter; numbers and booleans are turned into their PHP string forms. */
  str(name: string, fallback = '', options: LookupOptions = {}): string {
    const value = this.value(name, options);
    if (value === undefined) return fallback;
    return readStr(value, fallback) ?? fail(invalid(name));
  }

  /**
   * An integer parameter, PHP `intval` style: "12abc" → 12, non-numeric → the fallback. Ids
   * (`isIdName`) are read strictly instead: digits only, anything else is a parameter error.
   */
  int(name: string, fallback = 0, options: LookupOptions = {}): number {
    const value = this.value(name, options);
    if (value === undefined) return fallback;
    const read = isIdName(name)
      ? readId(value, fallback, ID_SELECTORS[name])
      : readInt(value, fallback);
    return read ?? fail(invalid(name));
  }

  /** A boolean parameter: 1/true/on/yes and 0/false/off/no (any case); anything else → fallback. */
  bool(name: string, fallback = false, options: LookupOptions = {}): boolean {
    const value = this.value(name, options);
    if (value === undefined) return fallback;
    return readBool(value, fallback) ?? fail(invalid(name));
  }

  /**
   * A list of strings given as an array (`a[]=1&a[]=2`, JSON array), a JSON array string, or a
   * comma list ("1,2,3"). Empty entries are dropped. Nested objects are refused.
   */
  list(name: string, options: LookupOptions = {}): string[] {
    const value = this.value(name, options);
    if (value === undefined) return [];
    // A JSON null is not a list here (the contracts read it as an empty one).
    const entries = value === null ? null : parseList(value);
    if (!entries) throw invalid(name);
    return entries;
  }

  /** Every parameter merged by precedence, for handlers that validate a whole input with zod. */
  all(): Record<string, unknown> {
    const { path, body, query } = this.sources;
    const merged: Record<string, unknown> = {};
    for (const name of new Set([
      ...Object.keys(query),
      ...Object.keys(body),
      ...Object.keys(path),
    ])) {
      const value = this.value(name);
      if (value !== undefined) merged[name] = value;
    }
    return merged;
  }
}

/**
 * The input of a declared action (api/contracts/): every parameter by precedence, parsed by its
 * schema. A value of the wrong shape answers as `Params` always did: 10101 `Invalid parameter: x`.
 */
export function parseInput(schema: ZodType, params: Params): unknown {
  const result = schema.safeParse(params.all());
  if (result.success) return result.data;
  const name = result.error.issues[0]?.path[0];
  throw errors.badParam(typeof name === 'string' ? name : 'input');
}
