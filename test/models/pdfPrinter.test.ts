/**
 * The PDF printer's bounds, with the real Chromium: the document reaches no network (a local
 * server it links to is never asked), its scripts do not run, data: pictures are embedded, and a
 * burst of prints beyond the queue is refused while the queued ones are printed one by one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { ApiError } from '../../models/platform';
import { printPdf } from '../../models/transfer/pdfPrinter';
import { readPdf } from '../helpers/pdfReader';
import { samples } from '../helpers/uploads';

const CHROMIUM = '/usr/bin/chromium';
let probe: http.Server;
let probeUrl: string;
const probeHits: string[] = [];

beforeAll(async () => {
  probe = http.createServer((req, res) => {
    probeHits.push(req.url ?? '');
    res.end('x');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => probe.close(resolve));
});

const page = (body: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`;

test('no network, no script; a data: picture is embedded', async () => {
  const png = samples.png();
  const html = page(`
    <link rel="stylesheet" href="${probeUrl}/style.css">
    <p id="text">printed text</p>
    <img alt="remote" src="${probeUrl}/remote.png">
    <iframe src="${probeUrl}/frame.html"></iframe>
    <img alt="inline" src="data:image/png;base64,${png.toString('base64')}">
    <script>document.getElementById('text').textContent = 'script ran';
      fetch('${probeUrl}/fetch');</script>`);
  const pdf = await readPdf(await printPdf(html, { chromiumPath: CHROMIUM, footerHtml: 'probe' }));
  expect(pdf.pages).toHaveLength(1);
  expect(pdf.pages[0]).toContain('printed text');
  expect(pdf.pages[0]).not.toContain('script ran');
  expect(probeHits).toEqual([]);
  expect(pdf.images[0].length).toBeGreaterThanOrEqual(1);
});

test('a burst beyond the queue (one printing, four waiting) is told to come back; the rest print', async () => {
  const burst = Array.from({ length: 7 }, (_, i) =>
    printPdf(page(`<p>print ${i}</p>`), { chromiumPath: CHROMIUM, footerHtml: '' }).then(
      (pdf) => ({ ok: true as const, pdf }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  );
  const results = await Promise.all(burst);
  const refused = results.filter((r) => !r.ok);
  // One printing and four waiting: the last two are refused at once.
  expect(refused).toHaveLength(2);
  for (const r of refused) {
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).code).toBe(10100);
  }
  for (const r of results.filter((r) => r.ok))
    expect(Buffer.from(r.pdf).subarray(0, 5).toString()).toBe('%PDF-');
}, 120_000);

test('a missing Chromium is a clear error, not a crash', async () => {
  await expect(
    printPdf(page('<p>x</p>'), { chromiumPath: '/nonexistent/chromium', footerHtml: '' }),
  ).rejects.toMatchObject({ code: 10101, message: expect.stringMatching(/not available/) });
});

test('a print past its deadline is a timeout error, and the next print still works', async () => {
  await expect(
    printPdf(page('<p>slow</p>'), { chromiumPath: CHROMIUM, footerHtml: '', timeoutMs: 1 }),
  ).rejects.toMatchObject({ code: 10005 });
  const pdf = await printPdf(page('<p>after</p>'), { chromiumPath: CHROMIUM, footerHtml: '' });
  expect((await readPdf(pdf)).pages[0]).toContain('after');
});
