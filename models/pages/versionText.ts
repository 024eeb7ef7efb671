/**
 * A kept version's text at rest. Versions are written on every save and read rarely (history,
 * diff, "since last read"), yet with the default 20 per page they are most of what a busy site
 * stores — and the embedded engine holds its data in memory. So a version's Markdown is stored
 * deflated (`page_content_z`, raw DEFLATE of its UTF-8) with `page_content` left empty, as ShowDoc
 * itself stored `page_history.page_content` compressed (gzcompress + Base64). Short texts, which
 * would not shrink, stay plain. Rows written before this, and plain rows from other writers, keep
 * their text in `page_content`: every reader goes through `versionText`/`withVersionText`.
 */
import zlib from 'node:zlib';
import type { PageHistoryDoc } from './schemas/pageHistory';
import { storedBytes } from './storedBytes';

/** Texts shorter than this (in UTF-8 bytes) are stored as they are. */
export const PACK_MIN_BYTES = 256;

export interface PackedText {
  page_content: string;
  page_content_z?: Buffer;
}

/** The stored form of a version's text. */
export function packVersionText(text: string): PackedText {
  if (text.length < PACK_MIN_BYTES / 3 || Buffer.byteLength(text) < PACK_MIN_BYTES)
    return { page_content: text };
  // Sent to the database and dropped: the engine keeps a copy of its own (values.ts ownBinaries).
  return { page_content: '', page_content_z: zlib.deflateRawSync(Buffer.from(text)) };
}

/** A version's text, whichever way it is stored. */
export function versionText(row: { page_content?: string; page_content_z?: unknown }): string {
  const bytes = storedBytes(row.page_content_z);
  if (!bytes.length) return row.page_content ?? '';
  return zlib.inflateRawSync(bytes).toString('utf8');
}

/** The row with its text in `page_content`, as readers and the API expect it. */
export function withVersionText<T extends PageHistoryDoc>(row: T): T {
  if (row.page_content_z === undefined) return row;
  const { page_content_z: _packed, ...rest } = row;
  return { ...rest, page_content: versionText(row) } as T;
}
