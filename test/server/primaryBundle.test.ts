/**
 * With WORKERS > 1 `npm start`'s own process is the cluster primary (dist-server/cluster.js): it
 * stays up for the whole run beside the workers, so it must stay small — routing, relays and the
 * workers' supervision, none of the app and none of the database engine. Read from the bundle
 * `npm start` runs: every module the entry can reach, through static and dynamic imports alike.
 */
import { expect, test } from '@jest/globals';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { ROOT } from '../../server/paths';
import { serverBuildOptions } from '../../server/serverBuild';

/** Our source files and the packages an entry of the bundle can ever load. */
function reachable(metafile: Metafile, entry: string): { sources: string[]; packages: string[] } {
  const sources = new Set<string>();
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const input of Object.keys(metafile.outputs[output]?.inputs ?? {})) sources.add(input);
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path);
      } else visit(imported.path);
    }
  };
  visit(Object.keys(metafile.outputs).find((output) => path.basename(output) === entry)!);
  return { sources: [...sources].sort(), packages: [...packages].sort() };
}

test("npm start's cluster primary can load only the routing, the relays and the supervisor: no app, no engine, no configuration code", async () => {
  const { metafile } = await build({
    ...serverBuildOptions(ROOT, path.join(ROOT, 'dist-server-metafile')),
    write: false,
    metafile: true,
  });
  const { sources, packages } = reachable(metafile, 'cluster.js');
  expect(packages).toEqual(['@socket.io/cluster-adapter']);
  expect(sources).toEqual([
    'realtime/sessionIds.ts',
    'server/cluster/primary.ts',
    'server/cluster/route.ts',
    'server/cluster/serveCluster.ts',
    'server/paths.ts',
    'server/supervisor.ts',
  ]);
});
