/**
 * `npm run bench`: API throughput and latency against ShowDoc-style calls, the bare Node ceiling,
 * realtime fan-out and server memory. Prints a Markdown table on stdout (progress on stderr),
 * writes JSON with `--json <path>`, and exits 1 when a cell failed (error answers, a wrong
 * sanity check) so a script can tell. `npm run bench -- --help` lists the options.
 */
import { parseArgs, USAGE } from './options';
import { formatReport } from './report';
import { runBench } from './run';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}

try {
  const report = await runBench(options);
  process.stdout.write(`${formatReport(report)}\n`);
  // Children are stopped and sockets closed; exiting explicitly ends the run even if a library
  // leaves an idle timer behind.
  process.exit(report.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
