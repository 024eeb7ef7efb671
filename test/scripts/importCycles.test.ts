/**
 * No import cycle anywhere in the source folders — type-only imports, re-exports and dynamic
 * `import()` included. The graph is built with the TypeScript compiler's own pre-processor and
 * module resolution (tsconfig.json), so an `index.ts` behind `models/<domain>` counts as the file
 * it is. A cycle fails the test with its files in order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE_FOLDERS = ['api', 'realtime', 'models', 'server', 'scripts', 'web'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function compilerOptions(): ts.CompilerOptions {
  const file = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(file.config, ts.sys, ROOT).options;
}

/** file → the files it imports, restricted to files under `root`. */
function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const files = folders.flatMap((folder) => sourceFiles(path.join(root, folder)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (target.startsWith(root + path.sep) && !target.endsWith('.d.ts')) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every cycle's files in import order (one cycle per strongly connected component, Tarjan). */
function findCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((component) => cycleWithin(graph, new Set(component)));
}

/** One concrete cycle inside a strongly connected component, by breadth-first search. */
function cycleWithin(graph: Map<string, string[]>, members: Set<string>): string[] {
  const start = [...members].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...members];
}

const describeCycle = (cycle: string[], root: string) =>
  cycle.map((file) => path.relative(root, file)).join(' → ');

const MODELS = path.join(ROOT, 'models');

/** `models/<domain>/…` → [domain, the rest], or undefined outside models/. */
function domainPath(file: string): [string, string[]] | undefined {
  const [domain, ...rest] = path.relative(MODELS, file).split(path.sep);
  return domain === '..' || rest.length === 0 ? undefined : [domain, rest];
}

/**
 * Domain → the domains it imports. A read of another domain's `schemas/` is no edge: collections
 * import only the platform (checked below), so they close no cycle; the lint rule
 * `quire/domain-faces` keeps such reads to the owner's index.ts anyway.
 */
function domainGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const domains = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = domainPath(file)?.[0];
    if (!from) continue;
    const edges = domains.get(from) ?? new Set<string>();
    domains.set(from, edges);
    for (const target of targets) {
      const to = domainPath(target);
      if (to && to[0] !== from && to[1][0] !== 'schemas') edges.add(to[0]);
    }
  }
  return new Map([...domains].map(([domain, edges]) => [domain, [...edges].sort()]));
}

describe('import cycles', () => {
  it('api/, realtime/, models/, server/, scripts/ and web/ import one another without a cycle', () => {
    const graph = importGraph(ROOT, SOURCE_FOLDERS);
    expect(graph.size).toBeGreaterThan(300);
    expect(findCycles(graph).map((cycle) => describeCycle(cycle, ROOT))).toEqual([]);
  });

  it('the domain folders under models/ import one another without a cycle', () => {
    const domains = domainGraph(importGraph(ROOT, ['models']));
    expect(domains.size).toBeGreaterThan(15);
    // Every domain reaches the platform; the platform reaches no domain but the engine.
    expect(domains.get('pages')).toContain('platform');
    expect(domains.get('platform')).toEqual(['embedded']);
    expect(findCycles(domains).map((cycle) => cycle.join(' → '))).toEqual([]);
    // The back office composes many domains from above: none of them may lean on it.
    expect(domains.get('backOffice')).toEqual(
      expect.arrayContaining(['items', 'members', 'pages']),
    );
    expect([...domains].filter(([, edges]) => edges.includes('backOffice'))).toEqual([]);
  });

  it("a domain's collections (schemas/) import nothing of models/ but the platform", () => {
    const graph = importGraph(ROOT, ['models']);
    const reaches: string[] = [];
    for (const [file, targets] of graph) {
      const from = domainPath(file);
      if (!from || from[1][0] !== 'schemas') continue;
      for (const target of targets) {
        const to = domainPath(target);
        const fine = to && (to[0] === 'platform' || (to[0] === from[0] && to[1][0] === 'schemas'));
        if (!fine) reaches.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      }
    }
    expect(reaches).toEqual([]);
  });

  it('finds a cycle between domain folders', () => {
    const graph = new Map([
      [path.join(MODELS, 'a/x.ts'), [path.join(MODELS, 'b/index.ts')]],
      [path.join(MODELS, 'b/index.ts'), [path.join(MODELS, 'b/y.ts')]],
      [path.join(MODELS, 'b/y.ts'), [path.join(MODELS, 'a/schemas/z.ts')]],
      [path.join(MODELS, 'b/w.ts'), [path.join(MODELS, 'a/index.ts')]],
    ]);
    // b → a only through a's collections: no cycle; through a's index: a cycle.
    expect(findCycles(domainGraph(new Map([...graph].slice(0, 3))))).toEqual([]);
    expect(findCycles(domainGraph(graph)).map((cycle) => cycle.join(' → '))).toEqual(['a → b → a']);
  });

  it('finds a cycle made only of type imports through an index file, and names its files', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cycles-')));
    try {
      fs.mkdirSync(path.join(dir, 'src/a'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/a/index.ts'), "export type { A } from './a';\n");
      fs.writeFileSync(
        path.join(dir, 'src/a/a.ts'),
        "import type { B } from '../b';\nexport interface A { b?: B }\n",
      );
      fs.writeFileSync(
        path.join(dir, 'src/b.ts'),
        "import type { A } from './a';\nexport interface B { a?: A }\n",
      );
      fs.writeFileSync(
        path.join(dir, 'src/c.ts'),
        "import type { B } from './b';\nexport type C = B;\n",
      );
      const cycles = findCycles(importGraph(dir, ['src']));
      expect(cycles.map((cycle) => describeCycle(cycle, dir))).toEqual([
        'src/a/a.ts → src/b.ts → src/a/index.ts → src/a/a.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
