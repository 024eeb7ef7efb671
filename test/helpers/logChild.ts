/**
 * A process that logs through createLogger's own stdout destination (test/models/platform/
 * log.test.ts), in the way the argument names:
 * - `exit`: an info line, then process.exit at once;
 * - `warn`: an info line and a warning, then its event loop is kept busy for 1.5 s, then a plain
 *   `busy over` line on stdout (synchronous: a pipe);
 * - `flush`: an info line, then `logger.flush` with a callback that prints `flushed` and exits;
 * - `many`: 2,000 info lines of growing length (several blocks and a partial one), then exit.
 */
import { createLogger } from '../../models/platform/log';

const logger = createLogger({ level: 'info' });
const mode = process.argv[2];

if (mode === 'exit') {
  logger.info({ step: 1 }, 'logged just before exit');
  process.exit(0);
}
if (mode === 'warn') {
  logger.info({ step: 1 }, 'an info line');
  logger.warn({ step: 2 }, 'a warning');
  const until = Date.now() + 1500;
  while (Date.now() < until);
  process.stdout.write('busy over\n');
  process.exit(0);
}
if (mode === 'many') {
  for (let n = 0; n < 2000; n++) logger.info({ n, text: 'x'.repeat(n % 300) }, `line ${n}`);
  process.exit(0);
}
if (mode === 'flush') {
  logger.info({ step: 1 }, 'an info line');
  logger.flush(() => {
    process.stdout.write('flushed\n');
    process.exit(0);
  });
}
