/**
 * The log's stdout destination (models/platform/log.ts) gathers lines into blocks, yet loses
 * none: what is gathered is written when the process exits, and a warning is written at once —
 * with the lines gathered before it — without waiting for the next block or the periodic flush.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@jest/globals';
import { ROOT } from '../../../server/paths';

const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** Runs test/helpers/logChild.ts in `mode`; resolves with its stdout once it exits. */
function runChild(mode: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, path.join(ROOT, 'test', 'helpers', 'logChild.ts'), mode],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('close', () => resolve(out)));
}

const messages = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg: string }).msg : line));

test('a line logged just before the process exits is on stdout', async () => {
  expect(messages(await runChild('exit'))).toEqual(['logged just before exit']);
}, 30_000);

test('a warning goes out at once with the lines gathered before it, while the loop is busy', async () => {
  // Gathered lines would wait for the event loop (the periodic flush) and come after `busy over`.
  expect(messages(await runChild('warn'))).toEqual(['an info line', 'a warning', 'busy over']);
}, 30_000);

test('lines gathered over many blocks all reach stdout, whole and in order', async () => {
  const lines = (await runChild('many')).split('\n').filter(Boolean);
  const parsed = lines.map((line) => JSON.parse(line) as { n: number; text: string; msg: string });
  expect(parsed.map((line) => line.n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
  expect(
    parsed.every((line) => line.msg === `line ${line.n}` && line.text.length === line.n % 300),
  ).toBe(true);
}, 30_000);

test("logger.flush writes what is gathered and calls back (pino's flush contract)", async () => {
  // Without the callback the child ends when its loop runs dry, without printing `flushed`.
  expect(messages(await runChild('flush'))).toEqual(['an info line', 'flushed']);
}, 30_000);
