/**
 * How deep user input may nest: JSON request bodies, and every imported document (ShowDoc zip
 * `info.json`, Markdown zip folders, Postman, Swagger/OpenAPI JSON and YAML). Real documents stay
 * far below the limit — ShowDoc catalogs nest a few levels (Quire folds those past
 * MAX_CATALOG_DEPTH into the last), OpenAPI schemas a few dozen JSON levels — while a document
 * nested thousands deep is an attack on recursive code (a RangeError, a 500, a stall). The walk
 * here is iterative, so measuring cannot overflow itself; the code after it may then recurse.
 */
import { errors } from './errors';

/** Nesting levels of objects and arrays (or folders) any one input may have. */
export const MAX_INPUT_DEPTH = 100;
/** How far a text pre-scan may over-count before it refuses (see assertYamlTextDepth). */
const TEXT_DEPTH_SLACK = 4;

/** The 10101 answer for input nested too deep, naming what was too deep. */
export function tooDeep(what: string, limit = MAX_INPUT_DEPTH, options?: { httpStatus?: number }) {
  return errors.failed(`${what} is nested too deeply (at most ${limit} levels)`, options);
}

/**
 * Whether `value` (parsed JSON or YAML) has objects or arrays nested at most `limit` levels;
 * stops at the first level past it. Shared objects (YAML aliases) are measured where they occur,
 * once per path, which the depth bound keeps finite.
 */
export function isWithinDepth(value: unknown, limit = MAX_INPUT_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth >= limit) return false;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children)
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return true;
}

/** Throws `tooDeep(what)` when `value` nests deeper than `limit` (see isWithinDepth). */
export function assertDepth(
  value: unknown,
  what: string,
  limit = MAX_INPUT_DEPTH,
  options?: { httpStatus?: number },
): void {
  if (!isWithinDepth(value, limit)) throw tooDeep(what, limit, options);
}

/**
 * A bound on the nesting of YAML text, measured before the parser sees it: `yaml`'s composer
 * recurses and spends seconds on a few thousand levels before it overflows. Counts flow brackets
 * outside quotes and block levels (indentation steps and compact `- ` entries) line by line. It
 * over-counts a little (a block scalar's own indentation), so it allows TEXT_DEPTH_SLACK times the
 * limit; the exact limit is `assertDepth` on the parsed value.
 */
export function assertYamlTextDepth(text: string, what: string, limit = MAX_INPUT_DEPTH): void {
  const bound = limit * TEXT_DEPTH_SLACK;
  const indents: number[] = [];
  let flow = 0;
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const body = line.slice(indent);
    if (body === '' || body.startsWith('#')) continue;
    while (indents.length && indents[indents.length - 1] > indent) indents.pop();
    if (!indents.length || indents[indents.length - 1] < indent) indents.push(indent);
    const dashes = /^(-\s+)*/.exec(body)![0].replace(/\s+/g, '').length;
    if (indents.length + dashes + flow > bound) throw tooDeep(what, limit);
    let quote = '';
    for (let i = 0; i < body.length; i += 1) {
      const c = body[i];
      if (quote) {
        if (c === '\\' && quote === '"') i += 1;
        else if (c === quote) quote = '';
        continue;
      }
      // A quote opens a scalar only where a token starts (not the apostrophe in "don't").
      if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(body[i - 1]))) quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(body[i - 1]))) break;
      else if (c === '[' || c === '{') {
        flow += 1;
        if (indents.length + flow > bound) throw tooDeep(what, limit);
      } else if (c === ']' || c === '}') flow = Math.max(0, flow - 1);
    }
    // Double-quoted scalars may span lines; single-quoted ones too. Either way the next line
    // starts fresh: a quote left open only makes the count smaller, and assertDepth follows.
  }
}
