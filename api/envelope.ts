/**
 * ShowDoc's response envelope (reference accounts §0.3): `{error_code: 0, data}` on success,
 * `{error_code, error_message}` (no `data`) on failure. An empty payload is `[]`, as PHP's empty
 * array serialises, and clients rely on that.
 */
import type { ServerResponse } from 'node:http';
import { RawJson } from '../models/platform';

export interface SuccessBody {
  error_code: 0;
  data: unknown;
}

export interface ErrorBody {
  error_code: number;
  error_message: string;
}

export function successBody(data: unknown): SuccessBody {
  return { error_code: 0, data: data === undefined || data === null ? [] : data };
}

/**
 * The success envelope as UTF-8 JSON, in parts to be written one after the other. Top-level
 * fields of `data` that are RawJson (text kept by a model, e.g. the item menu) are spliced in as
 * they are — their bytes are parts of their own, never copied into a new buffer (the menu of a
 * 1,000-page item is ~180 KB per item/info); everything else is serialised as JSON.stringify
 * would, in the same key order.
 */
export function successParts(data: unknown): Buffer[] {
  const body = successBody(data);
  const fields = body.data;
  const plain = () => [Buffer.from(JSON.stringify(body), 'utf8')];
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return plain();
  const entries = Object.entries(fields);
  if (!entries.some(([, value]) => value instanceof RawJson)) return plain();
  const parts: Buffer[] = [];
  let text = '{"error_code":0,"data":{';
  let first = true;
  for (const [key, value] of entries) {
    const json = value instanceof RawJson ? '' : JSON.stringify(value);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
    if (value instanceof RawJson) {
      parts.push(Buffer.from(text, 'utf8'), value.bytes);
      text = '';
    }
  }
  parts.push(Buffer.from(`${text}}}`, 'utf8'));
  return parts;
}

/**
 * Sends the success envelope: its parts in one corked write (a single writev, nothing copied),
 * with their total length, so the answer is not chunked.
 */
export function sendSuccess(res: ServerResponse, data: unknown): void {
  sendParts(res, successParts(data));
}

/** The envelope's Content-Type (the answer cache sends it too). */
export const ENVELOPE_TYPE = 'application/json; charset=utf-8';

/** Sends envelope parts (successParts') as the answer. */
export function sendParts(res: ServerResponse, parts: Buffer[]): void {
  let total = 0;
  for (const part of parts) total += part.length;
  res.setHeader('Content-Type', ENVELOPE_TYPE);
  res.setHeader('Content-Length', total);
  if (parts.length === 1) {
    res.end(parts[0]);
    return;
  }
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error_code: code, error_message: message };
}
