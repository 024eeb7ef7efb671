/**
 * Reading an uploaded zip safely (yauzl). The archive is untrusted: entries that leave the
 * extraction root (`..`, absolute paths, backslashes) or are symbolic links are refused, and
 * limits on the entry count, each entry's size, the total size and the compression ratio stop a
 * zip bomb before anything is inflated. Nothing is written to disk: the wanted entries are read
 * into memory (bounded by the limits).
 */
import type { Entry, ZipFile } from 'yauzl';
import { ApiError, errors } from '../platform';

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio accepted for entries above 1 MiB. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxEntryBytes: 20 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 200,
};

export interface ZipTextEntry {
  /** Path inside the archive, `/`-separated, never absolute, never with `..`. */
  path: string;
  data: Buffer;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function refuse(message: string): ApiError {
  return errors.failed(message);
}

/** yauzl loads with the first zip read, not when a process starts. */
async function openZip(filePath: string): Promise<ZipFile> {
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.open(
      filePath,
      { lazyEntries: true, autoClose: true, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error) : resolve(zip)),
    );
  });
}

function readEntry(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // validateEntrySizes also checks, but only at the end: stop a lying header early.
        if (size > maxBytes) stream.destroy(refuse('A file in the zip is larger than allowed'));
        else chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Checks every entry of the zip at `filePath`, then returns the contents of the files `wanted`
 * selects. Throws a 10101 ApiError naming the problem when the archive is unsafe or not a zip.
 */
export async function readZip(
  filePath: string,
  wanted: (path: string) => boolean,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ZipTextEntry[]> {
  let zip: ZipFile;
  try {
    zip = await openZip(filePath);
  } catch {
    throw refuse('The file is not a readable zip archive');
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw refuse(`The zip holds more than ${limits.maxEntries} entries`);
  }
  const out: ZipTextEntry[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      const message = error instanceof Error ? error.message : String(error);
      reject(
        error instanceof ApiError
          ? error
          : /invalid relative path|absolute path|backslash|invalid characters/i.test(message)
            ? refuse('The zip contains an unsafe path')
            : refuse(`The zip archive is damaged: ${message}`),
      );
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(out));
    zip.on('entry', (entry: Entry) => {
      void (async () => {
        const name = entry.fileName;
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        if (mode === S_IFLNK) throw refuse('The zip contains a symbolic link');
        if (name.split('/').includes('..') || name.startsWith('/'))
          throw refuse('The zip contains an unsafe path');
        if (name.endsWith('/')) return zip.readEntry();
        if (entry.uncompressedSize > limits.maxEntryBytes)
          throw refuse('A file in the zip is larger than allowed');
        total += entry.uncompressedSize;
        if (total > limits.maxTotalBytes) throw refuse('The zip unpacks to more than allowed');
        if (
          entry.uncompressedSize > 1024 * 1024 &&
          entry.uncompressedSize > limits.maxRatio * Math.max(1, entry.compressedSize)
        )
          throw refuse('The zip is compressed suspiciously well (a zip bomb?)');
        if (wanted(name))
          out.push({ path: name, data: await readEntry(zip, entry, limits.maxEntryBytes) });
        zip.readEntry();
      })().catch(fail);
    });
    zip.readEntry();
  });
}
