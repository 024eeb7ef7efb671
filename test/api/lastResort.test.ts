/**
 * The last-resort handler (api/lastResort.ts), in a real child process: an exception nobody
 * caught while a request's body is read answers that request 400 with the envelope and the
 * process keeps serving; an exception that no request owns stops the process with code 70 (the
 * supervisor's cue to restart it) after logging it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { ROOT } from '../../server/paths';

const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
let child: ChildProcess;
let output = '';
let port = 0;
let exited: Promise<number | null>;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, path.join(ROOT, 'test', 'helpers', 'lastResortChild.ts')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match && !port) {
        port = Number(match[1]);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`child exited early:\n${output}`)));
  });
}, 60_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

test('an uncaught error while reading a body answers that request 400; the process keeps serving', async () => {
  const answer = await fetch(`http://127.0.0.1:${port}/throw-in-stream`, {
    method: 'POST',
    body: 'some body',
  });
  expect(answer.status).toBe(400);
  expect(await answer.json()).toEqual({ error_code: 10101, error_message: 'Malformed request' });
  expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  expect(output).toContain('uncaught error while handling a request; answered 400');
});

test('an uncaught error outside any request is logged as fatal and ends the process with 70', async () => {
  await fetch(`http://127.0.0.1:${port}/throw-outside`);
  expect(await exited).toBe(70);
  expect(output).toContain('uncaught exception outside any request; stopping');
});
