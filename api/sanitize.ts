/**
 * Parsed request parameters are rebuilt without the keys that reach into prototypes. qs (query
 * strings and form bodies, with Express's `allowPrototypes`) and JSON.parse can both produce
 * `__proto__`/`constructor`/`prototype` keys; a handler that later spreads or merges such an
 * object could otherwise pollute Object.prototype or its own objects.
 */

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A deep copy of parsed input with the dangerous keys dropped at every level. */
export function stripPollutionKeys(value: unknown, depth = 0): unknown {
  if (depth > 32) return undefined; // parsed input never nests this deep on purpose
  if (Array.isArray(value)) return value.map((item) => stripPollutionKeys(item, depth + 1));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) continue;
      copy[key] = stripPollutionKeys(inner, depth + 1);
    }
    return copy;
  }
  return value;
}

/** Parsed input as a plain record (a JSON body may be an array or a scalar: those carry no params). */
export function toParamRecord(value: unknown): Record<string, unknown> {
  const clean = stripPollutionKeys(value);
  return clean !== null && typeof clean === 'object' && !Array.isArray(clean)
    ? (clean as Record<string, unknown>)
    : {};
}
