/**
 * The text of uploaded PDF, DOCX, XLSX, Markdown and plain-text files, for search.
 *
 * Extracted after the upload answers, one file at a time per process, in a child process
 * (extractTextProcess.mjs) with a small heap, a time limit and a cap on the text it may print: a
 * hostile file (a zip bomb, a PDF that never ends) is killed there and leaves the file without
 * text, while requests go on. Files above MAX_EXTRACT_BYTES are not read at all. The text is
 * stored on the file's row (`search_text`, never sent to clients), and `attachment.changed`
 * ('extracted') tells the search index to read the item's attachments again.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { events, fileStorage, perContext } from '../platform';
import { FilePage } from './schemas/filePage';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';

/** Largest file whose text is extracted. */
export const MAX_EXTRACT_BYTES = 20 * 1024 * 1024;
/** Most characters of text kept per file. */
export const MAX_TEXT_CHARS = 200_000;
/** Longest an extraction may run before its process is killed. */
export const EXTRACT_TIMEOUT_MS = 20_000;
/** The extracting process's heap (MB). */
const EXTRACT_HEAP_MB = 256;

type ExtractKind = 'pdf' | 'docx' | 'xlsx' | 'text';

const KIND_OF_EXTENSION: Record<string, ExtractKind> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  md: 'text',
  markdown: 'text',
  txt: 'text',
  csv: 'text',
};

/** What kind of text a file name promises, or null when its text is not extracted. */
export function extractKindOf(displayName: string): ExtractKind | null {
  const dot = displayName.lastIndexOf('.');
  if (dot < 0) return null;
  return KIND_OF_EXTENSION[displayName.slice(dot + 1).toLowerCase()] ?? null;
}

/** The folder of package.json: the root from the sources and from the dist-server/ bundle. */
function packageRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no package.json above models/files');
  }
}

/**
 * The text of `input` read as `kind` in a child process; rejects when the process fails, runs
 * past `timeoutMs` or prints more than the text allows.
 */
export function extractText(
  kind: ExtractKind,
  input: NodeJS.ReadableStream | Buffer,
  options: { timeoutMs?: number; maxChars?: number } = {},
): Promise<string> {
  const maxChars = options.maxChars ?? MAX_TEXT_CHARS;
  const script = path.join(packageRoot(), 'models/files/extractTextProcess.mjs');
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${EXTRACT_HEAP_MB}`, script, kind, String(maxChars)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // JSON escapes at most 6 output bytes per UTF-16 unit (\uXXXX), plus the wrapper.
  const maxOutput = maxChars * 6 + 64;
  return new Promise<string>((resolve, reject) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: Error | null = null;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new Error('text extraction timed out')),
      options.timeoutMs ?? EXTRACT_TIMEOUT_MS,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) stop(new Error('text extraction printed too much'));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    // The child may stop reading (killed, or done with what it needed): not our error.
    child.stdin.on('error', () => {});
    child.on('error', (error) => stop(error));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) return reject(new Error(`text extraction failed: ${stderr.slice(0, 500)}`));
      try {
        const { text } = JSON.parse(Buffer.concat(out).toString('utf8')) as { text: string };
        resolve(String(text ?? '').slice(0, maxChars));
      } catch (error) {
        reject(error as Error);
      }
    });
    if (Buffer.isBuffer(input)) child.stdin.end(input);
    else input.pipe(child.stdin);
  });
}

/** Extractions run one after another in this process (two cores serve everything else). */
const extractions = perContext(() => ({ queue: Promise.resolve() as Promise<void> }));

type ExtractedFile = Pick<
  UploadFileDoc,
  'file_id' | 'uid' | 'item_id' | 'page_id' | 'display_name' | 'file_size' | 'storage_key'
>;

async function extractAndStore(file: ExtractedFile, kind: ExtractKind): Promise<void> {
  const stored = await fileStorage().open(file.storage_key);
  if (!stored) return;
  let text: string;
  try {
    text = await extractText(kind, stored.stream);
  } catch {
    // Unreadable, hostile or too slow: the file stays without text (search does not find it).
    stored.stream.destroy();
    return;
  }
  // Blanks collapsed: layout whitespace (PDF columns, spreadsheet cells) only costs memory.
  const clean = text
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
  if (!clean) return;
  const { matchedCount } = await UploadFile.updateOne(
    { file_id: file.file_id },
    { $set: { search_text: clean } },
  );
  if (!matchedCount) return;
  events.publish('attachment.changed', {
    fileId: file.file_id,
    uid: file.uid,
    itemId: file.item_id,
    pageIds: file.page_id > 0 ? [file.page_id] : [],
    change: 'extracted',
  });
}

/**
 * Queues the extraction of a stored file's text when its type has text and it is small enough;
 * returns the promise of that extraction (callers need not wait: failures are logged, not thrown).
 */
export function queueTextExtraction(file: ExtractedFile): Promise<void> {
  const kind = extractKindOf(file.display_name);
  if (!kind || !file.storage_key || file.file_size > MAX_EXTRACT_BYTES) return Promise.resolve();
  // A failure (storage, database) leaves the file without text; the next upload still runs.
  const line = extractions();
  const run = line.queue.then(() => extractAndStore(file, kind).catch(() => undefined));
  line.queue = run;
  return run;
}

/** An item's file with extracted text, as search reads it. */
export interface FileText {
  file_id: number;
  sign: string;
  display_name: string;
  text: string;
  addtime: number;
  /** The pages of the item the file is attached to (empty: a file of the item itself). */
  pageIds: number[];
}

/**
 * The files with text that belong to an item: attached to its pages (wherever uploaded) or
 * uploaded to the item and attached nowhere.
 */
export async function itemFilesWithText(itemId: number): Promise<FileText[]> {
  const bindings = await FilePage.find({ item_id: itemId }, { file_id: 1, page_id: 1, _id: 0 })
    .limit(5000)
    .lean();
  const pagesOf = new Map<number, number[]>();
  for (const { file_id, page_id } of bindings) {
    const list = pagesOf.get(file_id) ?? [];
    list.push(page_id);
    pagesOf.set(file_id, list);
  }
  const files = await UploadFile.find(
    {
      $or: [{ item_id: itemId }, { file_id: { $in: [...pagesOf.keys()] } }],
      search_text: { $gt: '' },
    },
    {
      file_id: 1,
      sign: 1,
      display_name: 1,
      search_text: 1,
      addtime: 1,
      item_id: 1,
      page_id: 1,
      _id: 0,
    },
  ).lean();
  const out: FileText[] = [];
  for (const file of files) {
    // A file unbound from the page it was uploaded to is read as that page (as file visits do).
    const pageIds = pagesOf.get(file.file_id) ?? (file.page_id > 0 ? [file.page_id] : []);
    if (!pagesOf.has(file.file_id) && file.item_id !== itemId) continue;
    out.push({
      file_id: file.file_id,
      sign: file.sign,
      display_name: file.display_name,
      text: String(file.search_text ?? ''),
      addtime: file.addtime,
      pageIds,
    });
  }
  return out;
}
