/**
 * Child-process entry for multi-process tests: one Quire (server/quire.ts `startQuire`, exactly
 * what `npm start` runs) configured from the environment, without `npm start`'s web build step
 * (these tests need no web app). Prints the same "Quire is ready at …" line; SIGTERM stops it.
 */
import { loadConfig } from '../../models/platform/config';
import { startQuire } from '../../server/quire';

const print = (text: string) => process.stdout.write(`${text}\n`);
const quire = await startQuire(loadConfig(), { print });
process.on('SIGTERM', () => {
  quire.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
