/**
 * A value that is already JSON text, for answers whose big part is the same for many requests
 * (the item menu): the model serialises it once and keeps the text, and the envelope
 * (api/envelope.ts successParts) splices the bytes in instead of serialising objects again.
 * Anything else that serialises it (JSON.stringify, a test) gets the parsed value, so the wire
 * shape is the same either way.
 */
export class RawJson<T = unknown> {
  /** The UTF-8 bytes of the JSON text (kept encoded: the answer is written as they are). */
  readonly bytes: Buffer;

  constructor(json: string | Buffer) {
    this.bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  }

  /** The value, parsed (for code that wants objects rather than the text). */
  value(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }

  toJSON(): T {
    return this.value();
  }
}
