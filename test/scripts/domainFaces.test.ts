/**
 * One door per domain: no file outside a domain loads that domain's collections (`schemas/`);
 * it asks the domain's face (index.ts), or, from a domain below it, a port the owner fills
 * (models/platform/port.ts). Document types may be imported anywhere (they load nothing).
 * Checked twice: over the source tree with the TypeScript parser, and through the lint rule
 * `quire/domain-faces` itself (eslint.config.js), which must refuse such an import wherever it
 * appears and allow none by exception.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const MODELS = path.join(ROOT, 'models');
const FOLDERS = ['api', 'realtime', 'models', 'server', 'scripts'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || full === path.join(MODELS, 'embedded')
        ? []
        : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `models/<domain>/schemas…` → the domain, for a relative import from `file`. */
function schemasDomainOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(file), specifier);
  const [domain, inside] = path.relative(MODELS, target).split(path.sep);
  return domain !== '..' && inside === 'schemas' ? domain : undefined;
}

/** Value imports (and re-exports) of another domain's collections in one file. */
function schemaReaches(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const own = path.relative(MODELS, file).split(path.sep)[0];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const reaches: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: string | undefined;
    let typesOnly = false;
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      const named = clause?.namedBindings;
      typesOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifier = node.moduleSpecifier.text;
      const clause = node.exportClause;
      typesOnly =
        node.isTypeOnly ||
        (!!clause &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      specifier = node.arguments[0].text;
    const domain = specifier && !typesOnly ? schemasDomainOf(file, specifier) : undefined;
    if (domain && domain !== own) reaches.push(`${path.relative(ROOT, file)} → ${specifier}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reaches;
}

/** The `quire/domain-faces` errors eslint reports for each probe (by line). */
function lintProbes(probes: Array<{ file: string; code: string }>): number[][] {
  const script = `
    const path = require('node:path');
    const { ESLint } = require('eslint');
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const out = [];
      for (const probe of JSON.parse(process.argv[1])) {
        const [result] = await eslint.lintText(probe.code, {
          filePath: path.join(process.cwd(), probe.file),
        });
        out.push(result.messages.filter((m) => m.ruleId === 'quire/domain-faces').map((m) => m.line));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  const output = execFileSync(process.execPath, ['-e', script, JSON.stringify(probes)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

describe("a domain's collections are reached only through the domain", () => {
  it('no file of api/, realtime/, models/, server/ or scripts/ loads another domain’s schemas/', () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((file) => schemaReaches(file))).toEqual([]);
  });

  it('the scan finds value imports, re-exports and dynamic imports, not type-only ones', () => {
    const file = path.join(MODELS, 'items/probe.ts');
    const text = `
      import { Page } from '../pages/schemas';
      import type { PageDoc } from '../pages/schemas';
      import { type CatalogDoc } from '../catalogs/schemas';
      import { Item } from './schemas';
      export { Mock } from '../mocks/schemas/mock';
      export type { MockDoc } from '../mocks/schemas';
      const later = () => import('../files/schemas');`;
    expect(schemaReaches(file, text)).toEqual([
      'models/items/probe.ts → ../pages/schemas',
      'models/items/probe.ts → ../mocks/schemas/mock',
      'models/items/probe.ts → ../files/schemas',
    ]);
  });

  it('the lint rule refuses such an import in every folder and allows no file an exception', () => {
    const reach = "import { Catalog } from '../catalogs/schemas';\nexport const c = Catalog;\n";
    const lines = lintProbes([
      // The files that were once allowed a reach, and an ordinary one.
      { file: 'models/access/cache.ts', code: reach },
      { file: 'models/items/itemPurge.ts', code: reach },
      { file: 'models/pages/pageReads.ts', code: reach },
      { file: 'api/routes/probe.ts', code: reach.replace('../catalogs', '../../models/catalogs') },
      { file: 'realtime/probe.ts', code: reach.replace('../catalogs', '../models/catalogs') },
      // Allowed: the owner's own collections, a type-only import, the owner's face.
      {
        file: 'models/catalogs/probe.ts',
        code: "import { Catalog } from './schemas';\nexport const c = Catalog;\n",
      },
      {
        file: 'models/items/probe.ts',
        code: "import type { CatalogDoc } from '../catalogs/schemas';\nexport type C = CatalogDoc;\n",
      },
      {
        file: 'models/items/probe.ts',
        code: "import { Catalog } from '../catalogs';\nexport const c = Catalog;\n",
      },
    ]);
    expect(lines).toEqual([[1], [1], [1], [1], [1], [], [], []]);
  });
});
