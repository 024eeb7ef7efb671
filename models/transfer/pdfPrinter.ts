/**
 * Prints a self-contained HTML document to PDF with headless Chromium (Debian's, driven by
 * playwright-core). Chromium is the one engine here that lays out what the reader shows — the
 * same HTML and CSS, CJK line breaking, tables, fonts through fontconfig — and paginates it.
 *
 * Bounded because it is a whole browser: one print at a time per process (a queue, at most
 * MAX_WAITING behind it, later callers are told to come back), a deadline for the whole print,
 * JavaScript off, and no network at all — the document is handed over through request
 * interception and every other request is refused (pictures arrive inlined as data: URLs, which
 * never reach the network). Chromium is started per print and closed after it, so no browser
 * stays resident between exports.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { errors } from '../platform';

/** Prints waiting behind the running one before new ones are refused. */
const MAX_WAITING = 4;
/** Deadline of one print: Chromium's start, the layout and the PDF. */
export const PRINT_TIMEOUT_MS = 90_000;
/** The address the document is served at inside Chromium (never resolved: intercepted). */
const DOCUMENT_URL = 'http://quire-pdf.invalid/export.html';

export interface PrintOptions {
  /** PDF_CHROMIUM_PATH. */
  chromiumPath: string;
  /** Footer text beside the page number (escaped by the caller). */
  footerHtml: string;
  timeoutMs?: number;
}

let tail: Promise<unknown> = Promise.resolve();
/** Prints accepted and not finished: the running one and those waiting behind it. */
let pending = 0;

/** Runs `work` after every print queued before it. */
function enqueue<T>(work: () => Promise<T>): Promise<T> {
  if (pending >= 1 + MAX_WAITING)
    throw errors.refused('The server is busy printing other PDFs: try again in a minute');
  pending++;
  const run = tail.then(work, work).finally(() => {
    pending--;
  });
  tail = run.catch(() => undefined);
  return run;
}

export async function chromiumAvailable(chromiumPath: string): Promise<boolean> {
  try {
    await access(chromiumPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const FOOTER_STYLE =
  'width:100%;margin:0 12mm;font-size:8px;color:#8a8f98;display:flex;justify-content:space-between;font-family:sans-serif';

const tooLong = () =>
  errors.timeout('The PDF took too long to print: export one catalog at a time instead');

async function print(html: string, options: PrintOptions): Promise<Buffer> {
  const { chromium } = await import('playwright-core');
  const timeout = options.timeoutMs ?? PRINT_TIMEOUT_MS;
  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooLong()), timeout);
  });
  const work = (async () => {
    browser = await chromium.launch({
      executablePath: options.chromiumPath,
      timeout,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-extensions',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.route('**/*', (route) =>
      route.request().url() === DOCUMENT_URL
        ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
        : route.abort('blockedbyclient'),
    );
    await page.goto(DOCUMENT_URL, { waitUntil: 'load', timeout });
    return page.pdf({
      format: 'A4',
      printBackground: true,
      outline: true,
      tagged: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: `<div style="${FOOTER_STYLE}"><span>${options.footerHtml}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`,
      margin: { top: '16mm', bottom: '18mm', left: '16mm', right: '16mm' },
    });
  })();
  // Past the deadline the work is abandoned (its browser closed below); its failure is no news.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    throw error instanceof Error && error.name === 'TimeoutError' ? tooLong() : error;
  } finally {
    clearTimeout(timer);
    // A launch still under way when the deadline passed closes its browser when it arrives.
    void work.finally(() => browser?.close().catch(() => undefined)).catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

/** The PDF of `html` (a complete document needing nothing from the network). */
export async function printPdf(html: string, options: PrintOptions): Promise<Buffer> {
  if (!(await chromiumAvailable(options.chromiumPath)))
    throw errors.failed(
      'PDF export is not available on this server: Chromium is not installed (PDF_CHROMIUM_PATH)',
    );
  return enqueue(() => print(html, options));
}
