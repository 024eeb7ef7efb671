/**
 * ShowDoc's response envelope (reference accounts §0.3): `{error_code: 0, data}` on success,
 * `{error_code, error_message}` (no `data`) on failure. An empty payload is `[]`, as PHP's empty
 * array serialises, and clients rely on that.
 */
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
 * The success envelope as UTF-8 JSON. Top-level fields of `data` that are RawJson (text kept by
 * a model, e.g. the item menu) are spliced in as they are; everything else is serialised as
 * JSON.stringify would, in the same key order.
 */
export function successJson(data: unknown): Buffer {
  const body = successBody(data);
  const fields = body.data;
  const plain = () => Buffer.from(JSON.stringify(body), 'utf8');
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return plain();
  const entries = Object.entries(fields);
  if (!entries.some(([, value]) => value instanceof RawJson)) return plain();
  const chunks: Buffer[] = [];
  let text = '{"error_code":0,"data":{';
  let first = true;
  for (const [key, value] of entries) {
    const json = value instanceof RawJson ? '' : JSON.stringify(value);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
    if (value instanceof RawJson) {
      chunks.push(Buffer.from(text, 'utf8'), value.bytes);
      text = '';
    }
  }
  chunks.push(Buffer.from(`${text}}}`, 'utf8'));
  return Buffer.concat(chunks);
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error_code: code, error_message: message };
}
