/**
 * The unified-format runner (scripts/engineSpec.ts) against the embedded engine over the wire.
 * MongoDB's own specification files are not in this repository (their licence), so this runs
 * Quire's own files in the same format (test/fixtures/unified/): CRUD results, outcomes, error
 * codes of what MongoDB 7.0 refuses, a committed and an aborted transaction — and a wrong
 * expectation, which must fail, and a requirement the engine does not meet, which must skip.
 * The skip list of docs/engine.md is what the runner reads to judge a run on the real files.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { documentedSkips, match, runSpecFile, type SpecOutcome } from '../../scripts/engineSpec';
import { ROOT } from '../../server/paths';
import { startTestEngine, type TestEngine } from '../helpers/embedded';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'unified');
let engine: TestEngine;

beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

const byTest = (outcomes: SpecOutcome[]) =>
  Object.fromEntries(outcomes.map((o) => [o.test, o.status]));

test('CRUD basics and what MongoDB 7.0 refuses: every test passes', async () => {
  const outcomes = await runSpecFile(path.join(FIXTURES, 'crud-basics.json'), engine.uri);
  expect(outcomes.filter((o) => o.status !== 'passed')).toEqual([]);
  expect(outcomes).toHaveLength(5);
});

test('transactions: commit and abort pass, a wrong expectation fails, an unmet requirement skips', async () => {
  const outcomes = await runSpecFile(path.join(FIXTURES, 'transactions-basics.json'), engine.uri);
  expect(byTest(outcomes)).toEqual({
    'commit keeps the writes, abort drops them': 'passed',
    'a wrong expectation fails (the runner can fail)': 'failed',
    'sharded only': 'skipped',
  });
  expect(outcomes.find((o) => o.status === 'failed')!.reason).toMatch(/expected \[\{"_id":99\}\]/);
});

test('matching: extra fields only in root-level documents, numbers by value, $$ operators', () => {
  expect(match({ a: 1 }, { a: 1, b: 2 }, true)).toBeUndefined();
  expect(match({ a: { x: 1 } }, { a: { x: 1, y: 2 } }, true)).toMatch(/unexpected field y/);
  expect(match({ n: { $$exists: false } }, {}, true)).toBeUndefined();
  expect(match({ id: { $$type: ['int', 'long'] } }, { id: 5 }, true)).toBeUndefined();
  expect(match({ r: { $$unsetOrMatches: 3 } }, { r: 4 }, true)).toMatch(/expected 3/);
});

test('docs/engine.md lists its skips as file: test — why', () => {
  const skips = documentedSkips(fs.readFileSync(path.join(ROOT, 'docs', 'engine.md'), 'utf8'));
  expect(skips.has('find-let.json: Find with let option')).toBe(true);
  expect(skips.size).toBeGreaterThan(10);
});
