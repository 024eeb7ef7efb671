/**
 * Multipart uploads for actions (ShowDoc's `page/upload`, `page/uploadImg`): the request stream
 * is parsed with busboy and the one expected file is streamed to a staging file, never held in
 * memory. Defences, in the order they bite:
 *   - a declared Content-Length far above the size limit is refused before anything is read;
 *   - `beforeFile` runs when the file part starts, with the fields sent before it (ShowDoc's
 *     clients send `user_token`, `item_id` and `page_id` first or in the query string): when it
 *     refuses, the file is drained and not a byte is written;
 *   - the size limit is enforced while streaming: past it the partial file is deleted;
 *   - a body that keeps coming long past the limit is cut off;
 *   - every failure removes what was staged.
 * The caller stores the staged file (models/files/uploads.ts) and removes it in a `finally`.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { ApiError, errors } from '../models/platform';
import { getSiteSettings } from '../models/settings';
import { Params } from './params';
import type { ActionContext } from './registry';
import { toParamRecord } from './sanitize';
import type { RouteResolution } from './showdocRoute';

/** Room for the form fields around the file. */
const FORM_SLACK_BYTES = 1024 * 1024;
const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;
/** Extra (ignored) file parts tolerated before the form is refused. */
const MAX_FILE_PARTS = 5;

export interface StagedFile {
  /** The staging file (server-made name); remove it when done. */
  path: string;
  size: number;
  /** As the client sent it: untrusted, to be sanitised before any use. */
  filename: string;
}

export interface MultipartForm {
  fields: Record<string, string>;
  file: StagedFile | null;
}

export interface ReceiveOptions {
  /** Field names the file may come in; other file parts are drained and ignored. */
  fileFields: string[];
  maxBytes: number;
  stagingDir: string;
  /** Runs when the file starts, with the fields sent before it; throwing refuses the upload. */
  beforeFile?: (fields: Record<string, string>, filename: string) => Promise<void>;
}

function tooLarge(maxBytes: number): ApiError {
  const mb = Math.max(1, Math.round(maxBytes / 1024 / 1024));
  return errors.fileTooLarge(`The file is too large (limit ${mb} MB)`);
}

/** Deletes a staging file if there is one; a failure to delete must not mask the answer. */
async function discard(filePath: string | null): Promise<void> {
  if (filePath) await rm(filePath, { force: true }).catch(() => {});
}

/** Sends the refusal and then drops the connection, so an oversize body is not read to its end. */
function closeAfterResponse(ctx: ActionContext): void {
  ctx.res.set('Connection', 'close');
  ctx.res.once('finish', () => ctx.req.destroy());
}

/** Parses the multipart request of `ctx`. See the file comment. */
export function receiveMultipart(
  ctx: ActionContext,
  options: ReceiveOptions,
): Promise<MultipartForm> {
  const { req } = ctx;
  if (!req.is('multipart/form-data'))
    return Promise.reject(errors.failed('Please send the file as multipart/form-data'));
  const hardCap = options.maxBytes + FORM_SLACK_BYTES;
  if (Number(req.headers['content-length'] ?? 0) > hardCap) {
    closeAfterResponse(ctx);
    return Promise.reject(tooLarge(options.maxBytes));
  }

  return new Promise<MultipartForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          // busboy flags a file that reaches its limit exactly; one byte more tells "over" apart.
          fileSize: options.maxBytes + 1,
          files: MAX_FILE_PARTS,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + MAX_FILE_PARTS,
        },
      });
    } catch {
      reject(errors.failed('Malformed multipart body'));
      return;
    }

    const fields: Record<string, string> = {};
    let refusal: unknown = null;
    let fileSeen = false;
    let staged: StagedFile | null = null;
    let stagedPath: string | null = null;
    let writing: Promise<void> = Promise.resolve();
    let settled = false;
    let received = 0;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      parser.destroy();
      // Wait for the write to stop before deleting, so a late open cannot leave a file behind.
      void writing.then(async () => {
        await discard(stagedPath);
        reject(error);
      });
    };

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        refusal ??= errors.failed('A form field is too long');
        return;
      }
      fields[name] = value;
    });

    parser.on('file', (name, stream, info) => {
      // A body cut mid-file makes busboy fail the file stream itself ("Unexpected end of form");
      // an error with no listener would be thrown by Node and end the process. Every file stream
      // gets one, whether it is written, drained or ignored.
      stream.on('error', () => {
        refusal ??= errors.failed('Malformed multipart body');
      });
      if (refusal || fileSeen || !options.fileFields.includes(name)) {
        stream.resume();
        return;
      }
      fileSeen = true;
      // `writing` never rejects: every failure becomes the refusal the form is answered with.
      writing = (async () => {
        try {
          await options.beforeFile?.(
            toParamRecord(fields) as Record<string, string>,
            info.filename ?? '',
          );
        } catch (error) {
          refusal = error;
          stream.resume();
          return;
        }
        const target = path.join(options.stagingDir, `${randomBytes(16).toString('hex')}.part`);
        stagedPath = target;
        await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
        if ((stream as { truncated?: boolean }).truncated) throw tooLarge(options.maxBytes);
        staged = { path: target, size: (await stat(target)).size, filename: info.filename ?? '' };
      })().catch(async (error: unknown) => {
        refusal ??= error instanceof ApiError ? error : errors.uploadFailed('Upload failed');
        staged = null;
        await discard(stagedPath);
        stagedPath = null;
      });
    });

    const tooManyParts = () => {
      refusal ??= errors.failed('Too many form fields');
    };
    parser.on('partsLimit', tooManyParts);
    parser.on('fieldsLimit', tooManyParts);
    parser.on('filesLimit', tooManyParts);
    parser.on('error', () => fail(refusal ?? errors.failed('Malformed multipart body')));
    parser.on('close', () => {
      void writing.then(() => {
        if (settled) return;
        if (refusal) return fail(refusal);
        settled = true;
        resolve({ fields: toParamRecord(fields) as Record<string, string>, file: staged });
      });
    });

    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardCap && !settled) {
        closeAfterResponse(ctx);
        fail(tooLarge(options.maxBytes));
      }
    });
    req.on('close', () => {
      if (!req.complete) fail(errors.failed('The upload was interrupted'));
    });
    // An aborted or reset body errors the request stream: answered like a cut body, never thrown.
    req.on('error', () => fail(errors.failed('The upload was interrupted')));
    req.pipe(parser);
  });
}

/**
 * The action's parameters with the multipart fields as the body, by ShowDoc's precedence
 * (path → body → query).
 */
export function paramsWithForm(ctx: ActionContext, fields: Record<string, string>): Params {
  const route = ctx.res.locals.showdocRoute as Extract<RouteResolution, { kind: 'route' }>;
  const query = toParamRecord(ctx.req.query);
  if (route?.routeInQuery) delete query.s;
  return new Params({ path: route?.pathParams ?? {}, body: fields, query, bodyIsJson: false });
}

/** The user_token by ShowDoc's transport order: X-API-Token, Bearer, then the parameter. */
export function tokenOf(ctx: ActionContext, params: Params): string {
  const header = ctx.req.get('x-api-token');
  if (header) return header.trim();
  const bearer = /^Bearer\s+(\S+)/i.exec(ctx.req.get('authorization') ?? '');
  if (bearer) return bearer[1];
  try {
    return params.str('user_token');
  } catch {
    return '';
  }
}

/** The upload size limit of the site settings (`upload_max_mb`). */
export async function uploadLimitBytes(): Promise<number> {
  return (await getSiteSettings()).uploadMaxBytes;
}

/**
 * The base of the absolute URLs handed to clients (upload links): the `site_url` setting; else,
 * behind a trusted proxy (TRUST_PROXY), the host it forwarded; else the address this connection
 * actually reached. Never the request's own Host header: a client could name any site there and
 * have Quire hand out links to it.
 */
export async function publicBaseUrl(ctx: Pick<ActionContext, 'req'>): Promise<string> {
  const configured = (await getSiteSettings()).siteUrl.trim().replace(/\/+$/, '');
  if (/^https?:\/\//i.test(configured)) return configured;
  const { req } = ctx;
  const trusts = req.app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  if (req.get('x-forwarded-host') && trusts(req.socket.remoteAddress ?? '', 0))
    return `${req.protocol}://${req.host}`;
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `${req.protocol}://${host}:${req.socket.localPort}`;
}
