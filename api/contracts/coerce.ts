/**
 * How a ShowDoc client's parameters are read (reference accounts §0.2), as zod schemas: every
 * value may arrive as a string (forms, path segments), a number or a boolean (JSON), or not at
 * all (optional parameters fall back like PHP's `I('x', default)`). Objects and arrays are refused
 * where a scalar is expected, so `{"username": {"$ne": ""}}` never reaches a database filter.
 *
 * Imports nothing but zod: the web app imports these files type-only.
 */
import { z } from 'zod';

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no', '']);

/** Scalars only; the issue message is the parameter's own name filled in by the validator. */
function refuse(ctx: z.core.$RefinementCtx): never {
  ctx.addIssue({ code: 'custom', message: 'invalid' });
  return z.NEVER;
}

/**
 * A present value as a string, numbers and booleans in their PHP string forms; `null` when it is
 * no scalar. Shared by the contracts and `Params.str`, like `readInt` and `readBool` below.
 */
export function readStr(value: unknown, fallback: string): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : fallback;
  if (typeof value === 'boolean') return value ? '1' : '';
  return null;
}

/** A string parameter; numbers and booleans become their PHP string forms. */
export function str(fallback = '') {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): string =>
      value === undefined || value === null ? fallback : (readStr(value, fallback) ?? refuse(ctx)),
    );
}

/**
 * A present value read PHP `intval` style: "12abc" → 12, non-numeric → the fallback; `null` when
 * it is no scalar. The one reading of a ShowDoc integer, for the contracts and for `Params.int`.
 */
export function readInt(value: unknown, fallback: number): number | null {
  let n: number;
  if (typeof value === 'number') n = Math.trunc(value);
  else if (typeof value === 'boolean') n = value ? 1 : 0;
  else if (typeof value === 'string') {
    const match = /^\s*([+-]?\d+)/.exec(value);
    if (!match) return fallback;
    n = Number(match[1]);
  } else return null;
  return Number.isSafeInteger(n) ? n : fallback;
}

/** Parameter names that carry an id: `item_id`, `uid`, `id` (issue 32: ids are read strictly). */
export function isIdName(name: string): boolean {
  return name === 'id' || name === 'uid' || name.endsWith('_id');
}

/**
 * Words ShowDoc's clients send for an id they do not have: its request helper builds the form with
 * `URLSearchParams`, which writes an unset field as "undefined" or "null"; catalog pickers send the
 * top level's label "/" (`catalog/copy` `new_p_cat_id`).
 */
const UNSET_WORDS = new Set(['', 'undefined', 'null', '/']);

/**
 * Negative values some ids take as selectors in ShowDoc's clients: `item_group_id=-1` is the
 * starred items (item/myList, item/sort). Nothing else below 0 is an id.
 */
export const ID_SELECTORS: Readonly<Record<string, readonly number[]>> = {
  item_group_id: [-1],
};

/**
 * A present id: a decimal integer ≥ 0 (a string of digits or a JSON integer), nothing else — no
 * `intval` reading, so "1 OR 1=1", "1e308", "1abc", " 1", "-1" and "0x1" are refused (`null`)
 * instead of quietly becoming id 1. An empty or unset value is "not given" (the fallback); 0 stays
 * 0, which the handlers read as "not given" as ShowDoc does. `selectors`: the negative values
 * this id also takes (ID_SELECTORS), written exactly.
 */
export function readId(
  value: unknown,
  fallback: number,
  selectors: readonly number[] = [],
): number | null {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && (value >= 0 || selectors.includes(value)) ? value : null;
  if (typeof value !== 'string') return null;
  if (UNSET_WORDS.has(value)) return fallback;
  const selector = selectors.find((n) => String(n) === value);
  if (selector !== undefined) return selector;
  if (!/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A present value as a boolean: 1/true/on/yes and 0/false/off/no (any case), anything else → the
 * fallback; `null` when it is no scalar. Shared by the contracts and `Params.bool`.
 */
export function readBool(value: unknown, fallback: boolean): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return fallback;
}

/** An integer parameter, PHP `intval` style: "12abc" → 12, non-numeric → the fallback. */
export function int(fallback = 0) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number =>
      value === undefined || value === null ? fallback : (readInt(value, fallback) ?? refuse(ctx)),
    );
}

/**
 * An id parameter (see `readId`): digits only, absent or empty → the fallback; `selectors` are
 * the negative values it also takes (ID_SELECTORS).
 */
export function id(fallback = 0, selectors: readonly number[] = []) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number =>
      value === undefined || value === null
        ? fallback
        : (readId(value, fallback, selectors) ?? refuse(ctx)),
    );
}

/** A boolean parameter: 1/true/on/yes and 0/false/off/no (any case); anything else → fallback. */
export function bool(fallback = false) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): boolean =>
      value === undefined || value === null ? fallback : (readBool(value, fallback) ?? refuse(ctx)),
    );
}

/**
 * The absent-aware forms: `undefined` when the client did not send the parameter (or sent null),
 * so an action can tell "leave it as it is" from "set it to '' or 0"; a present value reads as
 * `str`, `int` and `bool` read it. (What `params.has(x) ? params.int(x) : undefined` said.)
 */
export function maybeStr() {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): string | undefined =>
      value === undefined || value === null ? undefined : (readStr(value, '') ?? refuse(ctx)),
    );
}

export function maybeInt(fallback = 0) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number | undefined =>
      value === undefined || value === null ? undefined : (readInt(value, fallback) ?? refuse(ctx)),
    );
}

/** An id the client may leave out (`undefined`), else read as strictly as `id`. */
export function maybeId(fallback = 0) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number | undefined =>
      value === undefined || value === null ? undefined : (readId(value, fallback) ?? refuse(ctx)),
    );
}

export function maybeBool(fallback = false) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): boolean | undefined =>
      value === undefined || value === null
        ? undefined
        : (readBool(value, fallback) ?? refuse(ctx)),
    );
}

/**
 * A list given as an array, a JSON array string or a comma list ("1,2,3"): its entries as trimmed
 * strings, empties dropped; `null` when it is none of those (nested objects, bad JSON). The one
 * reading of a ShowDoc list, for the contracts and for `Params.list`.
 */
export function parseList(raw: unknown): string[] | null {
  let value = raw;
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        value = JSON.parse(text);
      } catch {
        return null;
      }
    } else value = text.split(',');
  }
  if (typeof value === 'number') value = [value];
  if (!Array.isArray(value)) return null;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') {
      if (item.trim() !== '') out.push(item.trim());
    } else if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
    else return null;
  }
  return out;
}

/** A list given as an array, a JSON array string or a comma list ("1,2,3"); empties dropped. */
export function list() {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): string[] => parseList(raw) ?? refuse(ctx));
}

/** A structured parameter (JSON text or a form array) the action decodes itself. */
export function raw() {
  return z.unknown().optional();
}

/** The input of an action with no parameters of its own (auth travels beside the contract). */
export const noInput = z.object({});

/** ShowDoc's "nothing" payload: `[]` (what an action returning nothing answers). */
export const nothing = z.array(z.never());

/** A row column emitted as a string, or a computed number (ShowDoc mixes both). */
export const numish = z.union([z.number(), z.string()]);

export interface ActionContract {
  input: z.ZodType;
  output: z.ZodType;
}

export type ControllerContract = Record<string, ActionContract>;

/** Declares one action: `action(input fields, output schema)`. */
export function action<I extends z.ZodRawShape, O extends z.ZodType>(input: I, output: O) {
  return { input: z.object(input), output };
}
