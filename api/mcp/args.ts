/**
 * Argument readers for MCP tool handlers: ShowDoc's clients send ids as numbers or numeric
 * strings and leave optional arguments out. A wrong argument is a -32602 with its name.
 */
import { MCP_ERRORS, McpToolError } from './toolkit';

type Args = Record<string, unknown>;

const invalid = (message: string) => new McpToolError(MCP_ERRORS.INVALID_PARAMS, message);

function present(args: Args, name: string): boolean {
  return args[name] !== undefined && args[name] !== null && args[name] !== '';
}

function toInt(value: unknown): number {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : NaN;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return NaN;
}

/** A required positive integer id. */
export function idArg(args: Args, name: string): number {
  if (!present(args, name)) throw invalid(`Missing required parameter: ${name}`);
  const n = toInt(args[name]);
  if (!(n > 0)) throw invalid(`Parameter ${name} must be a positive integer`);
  return n;
}

/** An optional integer (>= min), `fallback` when absent. */
export function intArg(args: Args, name: string, fallback: number, min = 0): number {
  if (!present(args, name)) return fallback;
  const n = toInt(args[name]);
  if (!Number.isSafeInteger(n) || n < min)
    throw invalid(`Parameter ${name} must be an integer >= ${min}`);
  return n;
}

/** An optional positive id, 0 when absent. */
export function optionalIdArg(args: Args, name: string): number {
  return intArg(args, name, 0, 0);
}

/** A required non-empty string (numbers accepted as their text). */
export function stringArg(args: Args, name: string, maxLength = Infinity): string {
  if (!present(args, name)) throw invalid(`Missing required parameter: ${name}`);
  return optionalStringArg(args, name, '', maxLength);
}

/** An optional string, `fallback` when absent. Empty strings are kept (they may clear a field). */
export function optionalStringArg(
  args: Args,
  name: string,
  fallback = '',
  maxLength = Infinity,
): string {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw invalid(`Parameter ${name} must be a string`);
  if (value.length > maxLength)
    throw new McpToolError(
      MCP_ERRORS.CONTENT_TOO_LARGE,
      `Parameter ${name} is too long (at most ${maxLength} characters)`,
    );
  return value;
}

/** Whether the string argument was sent at all (for partial updates). */
export function has(args: Args, name: string): boolean {
  return args[name] !== undefined && args[name] !== null;
}

/** An optional boolean: true/false, 1/0, "true"/"false"/"1"/"0". */
export function boolArg(args: Args, name: string, fallback = false): boolean {
  const value = args[name];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  throw invalid(`Parameter ${name} must be a boolean`);
}

/** A required array (of anything; the tool checks the elements), at most `max` long. */
export function arrayArg(args: Args, name: string, max: number): unknown[] {
  const value = args[name];
  if (!Array.isArray(value)) throw invalid(`Parameter ${name} must be an array`);
  if (!value.length) throw invalid(`Parameter ${name} must not be empty`);
  if (value.length > max) throw invalid(`Parameter ${name} holds at most ${max} entries`);
  return value;
}

/** One of the allowed values, `fallback` when absent. */
export function enumArg<T extends string>(
  args: Args,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (!present(args, name)) return fallback;
  const value = String(args[name]);
  if (!(allowed as readonly string[]).includes(value))
    throw invalid(`Parameter ${name} must be one of: ${allowed.join(', ')}`);
  return value as T;
}
