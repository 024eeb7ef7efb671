/**
 * MongoDB's unified CRUD and transactions specification tests against the embedded engine
 * (the runner: scripts/engineSpec.ts; the skip list and the last figures: docs/engine.md).
 *
 *   npx tsx scripts/engine-spec.ts <mongodb/specifications checkout> [file filter]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedMongo } from '../models/embedded';
import { ROOT } from '../server/paths';
import { documentedSkips, runSpecFile, type SpecOutcome } from './engineSpec';

async function main(): Promise<void> {
  const [checkout, filter = ''] = process.argv.slice(2);
  if (!checkout) {
    process.stderr.write(
      'usage: npx tsx scripts/engine-spec.ts <specifications checkout> [filter]\n',
    );
    process.exit(2);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-spec-'));
  const engine = await startEmbeddedMongo({ dataDir, host: '127.0.0.1', port: 0 });
  const files = ['crud', 'transactions'].flatMap((suite) => {
    const dir = path.join(checkout, 'source', suite, 'tests', 'unified');
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json') && f.includes(filter))
      .map((f) => path.join(dir, f));
  });
  const all: SpecOutcome[] = [];
  for (const file of files) all.push(...(await runSpecFile(file, engine.uri)));
  await engine.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const skips = documentedSkips(fs.readFileSync(path.join(ROOT, 'docs', 'engine.md'), 'utf8'));
  let undocumented = 0;
  for (const o of all.filter((x) => x.status === 'failed')) {
    const listed = skips.has(`${o.file}: ${o.test}`);
    if (!listed) undocumented++;
    process.stdout.write(`${listed ? 'known' : 'FAIL '} ${o.file}: ${o.test} — ${o.reason}\n`);
  }
  const count = (s: SpecOutcome['status']) => all.filter((o) => o.status === s).length;
  process.stdout.write(
    `${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`,
  );
  process.exit(undocumented ? 1 : 0);
}

await main();
