/**
 * The common ShowDoc request body — a small UTF-8 form with its length declared, as ShowDoc's web
 * client, its apps and scripts send nearly every call — read without body-parser's general
 * machinery (content negotiation, charset tables, decompression streams, five stream listeners
 * added and removed per request: together about a tenth of a cached read's CPU in the bench's
 * profiles of page/info and item/search). The form is parsed exactly as body-parser's extended
 * urlencoded parser does — the same `qs` call with the same options, the same parameter count
 * bound and the same errors — so an action cannot tell which path read its body. Everything
 * else (JSON, other charsets, compressed or chunked bodies, big bodies) goes to body-parser.
 */
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import qs from 'qs';

/** Bodies up to this size take this path; bigger ones (page saves of long pages) body-parser's. */
export const SMALL_FORM_BYTES = 16 * 1024;

/** body-parser's urlencoded `depth` default, which the transport keeps. */
const FORM_DEPTH = 32;

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** An error shaped as body-parser's (http-errors): the error handler reads `status` and `type`. */
function parserError(status: number, message: string, type: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}

/** body-parser's parameter count: undefined past the limit. */
function parameterCount(body: string, limit: number): number | undefined {
  let count = 0;
  let index = -1;
  do {
    count++;
    if (count > limit) return undefined;
    index = body.indexOf('&', index + 1);
  } while (index !== -1);
  return count;
}

/** body-parser's extended urlencoded parse (body-parser/lib/types/urlencoded.js), same options. */
export function parseForm(body: string, parameterLimit: number): Record<string, unknown> {
  if (!body.length) return {};
  const count = parameterCount(body, parameterLimit);
  if (count === undefined) throw parserError(413, 'too many parameters', 'parameters.too.many');
  try {
    return qs.parse(body, {
      allowPrototypes: true,
      arrayLimit: Math.max(100, count),
      depth: FORM_DEPTH,
      charset: 'utf-8',
      parameterLimit,
      strictDepth: true,
    }) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof RangeError)
      throw parserError(400, 'The input exceeded the depth', 'querystring.parse.rangeError');
    throw error;
  }
}

/** The declared length when the request is a small identity-encoded UTF-8 form, else 0. */
export function smallFormLength(req: IncomingMessage, limitBytes: number): number {
  const headers = req.headers;
  const type = headers['content-type'];
  if (type === undefined || !FORM_TYPE.test(type)) return 0;
  if (headers['transfer-encoding'] !== undefined) return 0;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return 0;
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,9}$/.test(declared)) return 0;
  const length = Number(declared);
  return length > 0 && length <= Math.min(SMALL_FORM_BYTES, limitBytes) ? length : 0;
}

/**
 * Reads a small form (smallFormLength said yes) into `req.body`, then calls `done` — with
 * body-parser's error when the form is malformed. A client that goes away mid-body never gets
 * `done`: nobody is left to answer, and the request's listeners go with it.
 */
export function readSmallForm(
  req: Request,
  parameterLimit: number,
  done: (error?: unknown) => void,
): void {
  readSmallFormText(req, (text) => acceptSmallForm(req, text, parameterLimit, done));
}

/** A small form's text, as sent (smallFormLength said yes; the answer cache's front reads it too). */
export function readSmallFormText(req: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    done((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
  });
}

/** `readSmallForm` for a body already read (api/answerCache.ts's front read it). */
export function acceptSmallForm(
  req: Request,
  body: string,
  parameterLimit: number,
  done: (error?: unknown) => void,
): void {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body; // iconv-lite drops a BOM too
  try {
    req.body = parseForm(text, parameterLimit);
  } catch (error) {
    done(error);
    return;
  }
  done();
}
