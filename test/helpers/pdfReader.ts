/** A PDF as a reader sees it (pdfReaderProcess.mjs does the reading, in a process of its own). */
import { execFile } from 'node:child_process';
import path from 'node:path';

export interface ReadPdf {
  /** Text of each sheet, NFKC-normalised: PDF text of CJK fonts may come as compatibility forms. */
  pages: string[];
  /** The images embedded on each sheet, as `[width, height]` in pixels. */
  images: [number, number][][];
}

export function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(__dirname, 'pdfReaderProcess.mjs')],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`reading the PDF failed: ${stderr || error.message}`));
        const read = JSON.parse(stdout) as ReadPdf;
        resolve({ pages: read.pages.map((p) => p.normalize('NFKC')), images: read.images });
      },
    );
    child.stdin!.end(Buffer.from(bytes));
  });
}
