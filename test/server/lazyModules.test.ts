/**
 * Libraries only some requests need load on first use, not when a process starts: every worker
 * would otherwise carry them (their code and what they build at load) for its whole life. Read
 * from the bundle `npm start` runs: the packages a process entry reaches through static imports
 * alone, chunk by chunk, are what it loads before serving anything.
 */
import { describe, expect, test } from '@jest/globals';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { ROOT } from '../../server/paths';
import { serverBuildOptions } from '../../server/serverBuild';

/** The packages a bundle entry loads at start: externals reached by static imports only. */
function packagesLoadedAtStart(metafile: Metafile, entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue; // a dynamic import() waits for its use
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path);
      } else visit(imported.path);
    }
  };
  visit(Object.keys(metafile.outputs).find((output) => path.basename(output) === entry)!);
  return packages;
}

/** Exports, imports, LDAP, the AI assistant, QR codes, the Socket.IO Redis adapter, flow runs. */
const ON_FIRST_USE = [
  'fflate',
  'yauzl',
  'yaml',
  'markdown-it',
  'sanitize-html',
  'docx',
  'ldapts',
  'openai',
  'qrcode',
  '@socket.io/redis-adapter',
  '@aws-sdk/client-s3',
  'mockjs',
  'sql.js',
  'jsonpath-plus',
];

/**
 * Live documents' libraries: only the process that holds documents loads them (a single process,
 * or the lead worker: server/cluster/route.ts sends it every `/collab` connection); Redis's only
 * with REDIS_URL.
 */
const WHERE_NEEDED = ['@hocuspocus/server', '@hocuspocus/extension-redis', 'yjs', 'ioredis'];

describe('what a serving process loads before its first request', () => {
  let metafile: Metafile;

  test('the bundle builds', async () => {
    const result = await build({
      ...serverBuildOptions(ROOT, path.join(ROOT, 'dist-server-metafile')),
      write: false,
      metafile: true,
    });
    metafile = result.metafile;
    expect(Object.keys(metafile.outputs).length).toBeGreaterThan(0);
  });

  // A worker is the app (WORKERS > 1). A single process (serve.js) loads the same app modules, but
  // through one dynamic import at start, which this walk does not follow.
  test('a worker leaves export, import, LDAP, AI, QR, live-document and Redis libraries for where they are used', () => {
    const loaded = packagesLoadedAtStart(metafile, 'worker.js');
    // The app itself is there: the walk follows the chunks.
    expect(loaded).toContain('express');
    expect([...ON_FIRST_USE, ...WHERE_NEEDED].filter((name) => loaded.has(name))).toEqual([]);
  });
});
