/**
 * The huge-item figures on their own (the same cell `npm run bench -- --huge` runs): memory per
 * 10,000 pages of the embedded engine, the reader's first paint, search and save on an item of
 * 100,000 pages in 5,000 catalogs. `npx tsx scripts/measure-huge.ts [--pages <n>]` (default
 * 100,000; the catalogs scale with it). Takes a few minutes and a few GB of memory at 100,000.
 */
import { DEFAULT_HUGE, formatHuge, measureHugeItem } from './bench/huge';

const at = process.argv.indexOf('--pages');
const pages = at > 0 ? Number(process.argv[at + 1]) : DEFAULT_HUGE.pages;
if (!Number.isInteger(pages) || pages < 1000) {
  process.stderr.write('--pages needs a whole number of at least 1000\n');
  process.exit(2);
}
const scale = pages / DEFAULT_HUGE.pages;
const catalogLevels = DEFAULT_HUGE.catalogLevels.map((n) => Math.max(1, Math.round(n * scale)));

const log = (line: string) => process.stderr.write(`${line}\n`);
try {
  const cell = await measureHugeItem({ options: { ...DEFAULT_HUGE, pages, catalogLevels }, log });
  process.stdout.write(`${formatHuge(cell)}\n`);
  process.exit(cell.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`measure-huge failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
