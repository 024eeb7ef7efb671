/**
 * Uploads in tests: multipart bodies built byte by byte (so field order, odd file names and
 * control characters are exactly what a hostile client would send), sample files of each kind,
 * and a look at what the storage folder holds.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { qrCodePng } from '../../api/routes/common';
import { UploadFile, type UploadFileDoc } from '../../models/files/schemas/uploadFile';
import { BROWSER_UA } from './client';

export type Part =
  | { name: string; value: string }
  | {
      name: string;
      filename: string;
      content: Buffer | string;
      type?: string;
      /** Sent as RFC 5987 `filename*` (percent-encoded UTF-8) instead of the plain `filename`. */
      encoded?: boolean;
    };

/** A multipart/form-data body with the parts in the given order. Names are sent raw (UTF-8). */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----quire${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n`));
      chunks.push(Buffer.from(part.value, 'utf8'));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; ` +
            (part.encoded
              ? `filename*=UTF-8''${encodeURIComponent(part.filename)}\r\n`
              : `filename="${part.filename}"\r\n`) +
            `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
          'utf8',
        ),
      );
      chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs a multipart form to `/api/<route>` (plus an optional query string). */
export async function postMultipart(
  baseUrl: string,
  route: string,
  parts: Part[],
  options: { query?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<UploadAnswer> {
  const url = new URL(`/api/${route}`, baseUrl);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const { body, contentType } = multipartBody(parts);
  // Building a large body (a 30 MB zip bomb, say) can hold the event loop past the server's
  // keep-alive timeout: let the pool's timers and the server's FIN run first, so the POST does not
  // go out on a connection the server has already closed (ECONNRESET; POSTs are not retried).
  await new Promise((resolve) => setTimeout(resolve, 20));
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'user-agent': BROWSER_UA, ...options.headers },
    body: new Uint8Array(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${route} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Sample contents: real signatures for the accepted kinds, and hostile ones. */
export const samples = {
  png: (): Buffer => qrCodePng(`quire-${randomBytes(4).toString('hex')}`, 1),
  jpeg: (): Buffer =>
    Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0'),
      randomBytes(64),
    ]),
  gif: (): Buffer => Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]),
  pdf: (): Buffer => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n%%EOF\n`),
  zip: (): Buffer => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(40)]),
  text: (text = `plain notes ${randomBytes(4).toString('hex')}\n`): Buffer => Buffer.from(text),
  html: (): Buffer =>
    Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>'),
  svg: (): Buffer =>
    Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    ),
  php: (): Buffer => Buffer.from('<?php system($_GET["c"]); ?>'),
};

/** Every file under `dir` (relative paths), staging folder included; [] when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string) => {
    let entries;
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return found.sort();
}

/** The `sign` of a download URL handed out by the upload and list actions. */
export function signOf(url: unknown): string {
  const match = /[?&]sign=([0-9a-f]{32})$/.exec(String(url));
  if (!match) throw new Error(`not a visitFile URL: ${String(url)}`);
  return match[1];
}

/**
 * Uploads a file as `user` through page/upload (or `route`, e.g. the editor's image upload) and
 * returns the stored row; throws when the upload is refused.
 */
export type UploadArgs = [
  filename: string,
  content: Buffer,
  fields?: Record<string, number>,
  route?: string,
];

export async function uploadAs(
  serverUrl: string,
  user: { user_token: string },
  ...[filename, content, fields = {}, route = 'page/upload']: UploadArgs
): Promise<UploadFileDoc> {
  const answer = await postMultipart(serverUrl, route, [
    { name: 'user_token', value: user.user_token },
    ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
    { name: route === 'page/upload' ? 'file' : 'editormd-image-file', filename, content },
  ]);
  if (answer.body.success !== 1) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  const row = await UploadFile.findOne({ sign: signOf(answer.body.url) }).lean<UploadFileDoc>();
  if (!row) throw new Error('no row');
  return row;
}
