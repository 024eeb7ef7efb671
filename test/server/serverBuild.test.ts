/**
 * When `npm start` rebuilds the server bundle (dist-server/): missing, or older than any server
 * source (api/, models/, realtime/, scripts/, package.json, tsconfig.json) — web/ does not count.
 */
import { afterEach, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { serverBuildIsStale } from '../../server/serverBuild';
import { makeTempDir } from '../helpers/server';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const SOURCES = [
  'api/routes/page.ts',
  'models/pages/index.ts',
  'realtime/fanout.ts',
  'server/cluster/worker.ts',
  'package.json',
  'tsconfig.json',
];

function touch(file: string, secondsAgo: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, 'x');
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
}

/** Every source and its folders 100 s old, the bundle 50 s old: up to date. */
async function freshRoot(): Promise<string> {
  root = await makeTempDir('quire-server-build-');
  for (const source of SOURCES) touch(path.join(root, source), 100);
  for (const source of SOURCES)
    for (let dir = path.dirname(source); dir !== '.'; dir = path.dirname(dir))
      touch(path.join(root, dir), 100);
  touch(path.join(root, 'web', 'main.tsx'), 100);
  touch(path.join(root, 'dist-server', 'serve.js'), 50);
  return root;
}

test('a build is needed when dist-server/ is missing, not when it is newer than every source', async () => {
  await freshRoot();
  expect(serverBuildIsStale(root)).toBe(false);
  fs.rmSync(path.join(root, 'dist-server'), { recursive: true });
  expect(serverBuildIsStale(root)).toBe(true);
});

test.each(SOURCES)('a build is needed when %s is newer than dist-server/', async (source) => {
  await freshRoot();
  touch(path.join(root, source), 10);
  expect(serverBuildIsStale(root)).toBe(true);
});

test('a change to the web app alone does not rebuild the server', async () => {
  await freshRoot();
  touch(path.join(root, 'web', 'main.tsx'), 10);
  expect(serverBuildIsStale(root)).toBe(false);
});
