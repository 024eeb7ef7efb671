/**
 * Mock templates (reference pages §7): JSON in Mock.js syntax (`{"id|1-10": 1, "name": "@name"}`),
 * expanded in-process with the `mockjs` package (ShowDoc posts it to a separate Mock.js service).
 *
 * Expanding runs on a public URL, so the template is vetted first, on save and again on serving:
 *   - Mock.js `eval`s the argument list of every `@placeholder(…)`. Arguments may therefore only
 *     be literals — numbers, quoted strings, true/false/null/undefined, `[ ] ,` — which cannot
 *     call anything (no identifiers, parentheses or backticks); anything else is refused.
 *   - Repeat rules (`"list|1000": […]`, `"s|5-9": "ab"`, `"n|1-9.1-3": 1`) and size arguments of
 *     generators (`@string(…)`, `@range(…)`, `@paragraph(…)`) are multiplied through the template
 *     into a bound on the work an expansion may do; over MAX_EXPANSION_COST it is refused.
 */
import { assertDepth, failure } from '../platform';
import { unescapeFromClient } from '../pages';

export const MAX_TEMPLATE_LENGTH = 512 * 1024;
/** Upper bound on generated values (strings, numbers, array elements) one expansion may produce. */
export const MAX_EXPANSION_COST = 200_000;
const MAX_DECIMALS = 20;

/** Mock.js's own patterns (Constant.RE_KEY / RE_RANGE / RE_PLACEHOLDER), so we see what it sees. */
const RE_KEY = /(.+)\|(?:\+(\d+)|([+-]?\d+-?[+-]?\d*)?(?:\.(\d+-?\d*))?)/;
const RE_RANGE = /([+-]?\d+)-?([+-]?\d+)?/;
const RE_PLACEHOLDER = /\\*@([^@#%&()?\s]+)(?:\((.*?)\))?/g;

/** Literal-only argument lists: what Mock.js may safely `eval`. */
const SAFE_ARGUMENTS =
  /^(?:\s|,|\[|\]|-?\d+(?:\.\d+)?|'[^'\\\n]*'|"[^"\\\n]*"|true|false|null|undefined)*$/;
/** Generators whose numeric arguments set the size of what they produce. */
const SIZED = new Set([
  'string',
  'range',
  'paragraph',
  'cparagraph',
  'sentence',
  'csentence',
  'word',
  'cword',
  'title',
  'ctitle',
]);

/** The largest count a Mock.js range (`5`, `1-10`, `-3`) can yield. */
function rangeMax(text: string | undefined): number {
  const m = text ? RE_RANGE.exec(text) : null;
  if (!m) return 1;
  return Math.max(Math.abs(Number(m[1])), m[2] === undefined ? 0 : Math.abs(Number(m[2])), 1);
}

interface Rule {
  count: number;
  decimals: number;
}

function ruleOf(key: string): Rule {
  const m = RE_KEY.exec(key);
  if (!m) return { count: 1, decimals: 0 };
  return { count: m[2] !== undefined ? 1 : rangeMax(m[3]), decimals: m[4] ? rangeMax(m[4]) : 0 };
}

/** Work of one string value's placeholders (and refusal of unsafe arguments). */
function stringCost(text: string): number {
  let cost = 1;
  for (const match of text.matchAll(RE_PLACEHOLDER)) {
    const [, name, args] = match;
    if (args === undefined) {
      cost += 1;
      continue;
    }
    if (!SAFE_ARGUMENTS.test(args))
      throw failure(
        `Mock placeholder @${name}: arguments may only be numbers, quoted strings or booleans`,
      );
    const numbers = args.match(/\d+(?:\.\d+)?/g)?.map(Number) ?? [];
    cost += SIZED.has(name.toLowerCase()) ? Math.max(1, ...numbers) : 1;
  }
  return cost;
}

function valueCost(value: unknown, rule: Rule): number {
  if (rule.decimals > MAX_DECIMALS)
    throw failure(`Mock rules may ask for at most ${MAX_DECIMALS} decimals`);
  if (typeof value === 'string') return rule.count * stringCost(value);
  if (Array.isArray(value))
    return rule.count * value.reduce<number>((sum, v) => sum + valueCost(v, ONE), 1);
  if (value && typeof value === 'object')
    return Object.entries(value).reduce<number>(
      (sum, [key, v]) => sum + stringCost(key) + valueCost(v, ruleOf(key)),
      1,
    );
  return 1;
}

const ONE: Rule = { count: 1, decimals: 0 };

/**
 * Parses and vets a template as stored (the text the editor wrote, un-escaped once as ShowDoc
 * does before using it). Throws 10101 with the reason.
 */
export function parseMockTemplate(stored: string): unknown {
  if (stored.length > MAX_TEMPLATE_LENGTH) throw failure('The mock template is too long');
  let parsed: unknown;
  try {
    parsed = JSON.parse(unescapeFromClient(stored));
  } catch {
    throw failure('Only JSON is allowed');
  }
  // valueCost and Mock.js both recurse through the template.
  assertDepth(parsed, 'The mock template');
  if (valueCost(parsed, ONE) > MAX_EXPANSION_COST)
    throw failure('The mock template would generate too much data');
  return parsed;
}

/** `< > & ' "` inside JSON strings as `\u00XX` (PHP's JSON_HEX_*), so the answer is inert in HTML. */
export function hexEscapeJson(json: string): string {
  return json.replace(/\\.|[<>&']/g, (m) => {
    if (m === '\\"') return '\\u0022';
    if (m.length === 2) return m;
    return `\\u00${m.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  });
}

/**
 * The Mock.js expansion of a stored template, as the JSON text mock URLs answer. Mock.js loads
 * on the first expansion, not in every process at start.
 */
export async function expandMockTemplate(stored: string): Promise<string> {
  const template = parseMockTemplate(stored);
  const { default: Mockjs } = await import('mockjs');
  // Mock.mock mutates nothing we keep: `template` is this call's own parse.
  return hexEscapeJson(JSON.stringify(Mockjs.mock(template)) ?? 'null');
}
