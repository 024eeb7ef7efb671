/** When `npm start` rebuilds the web app: dist/ missing, or older than web/ or the Vite config. */
import { afterEach, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { webBuildIsStale } from '../../server/webBuild';
import { makeTempDir } from '../helpers/server';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function touch(file: string, secondsAgo: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, 'x');
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
}

function settleDirs() {
  // Folder mtimes count (a deleted source changes its folder); age them with the files.
  for (const dir of [path.join(root, 'web'), path.join(root, 'web', 'features')])
    if (fs.existsSync(dir)) touch(dir, 100);
}

test('a build is needed when dist/ is missing, not when it is newer than every source', async () => {
  root = await makeTempDir('quire-build-');
  touch(path.join(root, 'web', 'main.tsx'), 100);
  touch(path.join(root, 'vite.config.ts'), 100);
  settleDirs();
  expect(webBuildIsStale(root)).toBe(true);
  touch(path.join(root, 'dist', 'index.html'), 50);
  expect(webBuildIsStale(root)).toBe(false);
});

test('a build is needed when any web source, nested or not, or the Vite config is newer than dist/', async () => {
  root = await makeTempDir('quire-build-');
  touch(path.join(root, 'web', 'features', 'page.tsx'), 100);
  touch(path.join(root, 'vite.config.ts'), 100);
  settleDirs();
  touch(path.join(root, 'dist', 'index.html'), 50);
  expect(webBuildIsStale(root)).toBe(false);

  touch(path.join(root, 'web', 'features', 'page.tsx'), 10);
  expect(webBuildIsStale(root)).toBe(true);
  touch(path.join(root, 'dist', 'index.html'), 5);
  touch(path.join(root, 'vite.config.ts'), 1);
  expect(webBuildIsStale(root)).toBe(true);
});
