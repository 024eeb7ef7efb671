// ESLint flat config: JavaScript's and typescript-eslint's recommended rules everywhere, with the
// globals of where each folder runs (browser for web/, Node elsewhere). Formatting is Prettier's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// models/ is one folder per domain plus platform/ and the sealed embedded/ engine. From outside a
// folder only its public face may be imported: `models/<domain>` (its index.ts). A domain's
// `schemas/` (its collections) are its own: another domain, api/, realtime/ or server/ reaches
// them through the owner's index.ts, which exports the functions (or, for now, the models) it
// offers, so the owner sees who reads its data (rule `quire/domain-faces` below). A domain below
// the owner (whose index would close an import cycle) asks through a port the owner fills
// (models/platform/port.ts). Only the documents' types may be imported from anywhere: they read
// no rows and load nothing. Tests may import anything.
const MODELS_FACES =
  'Import models/<domain> (its index.ts), not a file inside the folder; export what you need from the index.';

const ROOT_DIR = path.dirname(fileURLToPath(import.meta.url));
const MODELS_DIR = path.join(ROOT_DIR, 'models');

/** The domain folder under models/ a path lies in, or undefined outside models/. */
function domainOf(file) {
  const [first, ...rest] = path.relative(MODELS_DIR, file).split(path.sep);
  return first === '..' || rest.length === 0 ? undefined : first;
}

/** Whether an import or re-export brings in types only (it loads nothing at run time). */
function typesOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')
  );
}

/** Refuses an import of another domain's `schemas/` (but of its document types). */
const domainFacesRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      schemas:
        'models/{{domain}}/schemas belongs to the {{domain}} domain: ask models/{{domain}} (a function its index.ts exports), or, from a domain below it, a port it fills (models/platform/port.ts).',
    },
  },
  create(context) {
    const own = domainOf(context.filename);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.') || typesOnly(node)) return;
      const target = path.resolve(path.dirname(context.filename), source);
      const [domain, inside] = path.relative(MODELS_DIR, target).split(path.sep);
      if (domain === '..' || inside !== 'schemas' || domain === own) return;
      context.report({ node, messageId: 'schemas', data: { domain } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist.*/',
      'dist-server/',
      'dist-server.*/',
      'node_modules/',
      'data/',
      'coverage/',
      '.scratch/',
      'test-results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The offline service worker (plain JS, emitted as /sw.js by vite.config.ts).
    files: ['web/sw/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: [
      'api/**/*.ts',
      'realtime/**/*.ts',
      'server/**/*.ts',
      'scripts/**/*.ts',
      'web/**/*.{ts,tsx}',
      '*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '(^|/)models/[^/]+/(?!(schemas|index)$).+', message: MODELS_FACES }],
        },
      ],
    },
  },
  {
    // The processes that stay up beside the workers (the supervisor, the primary) read only the
    // configuration (and the data-folder check, Node built-ins only): `models/platform/index.ts`
    // would load mongoose and the rest of the app.
    files: [
      'server/prepare.ts',
      'server/serve.ts',
      'server/startup.ts',
      'server/cluster/primary.ts',
      'server/cluster/serveCluster.ts',
      'scripts/bench/server.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)models/(?!platform/(config|ephemeral)$)[^/]+/(?!(schemas|index)$).+',
              message: MODELS_FACES,
            },
          ],
        },
      ],
    },
  },
  {
    // Inside models/: a sibling domain only through its faces (the engine polices its own insides).
    files: ['models/**/*.ts'],
    ignores: ['models/embedded/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+[^./][^/]*/(?!(schemas|index)$).+', message: MODELS_FACES },
          ],
        },
      ],
    },
  },
  {
    // One door per domain: another domain's collections only through its index.ts.
    files: [
      'api/**/*.ts',
      'realtime/**/*.ts',
      'server/**/*.ts',
      'scripts/**/*.ts',
      'models/**/*.ts',
    ],
    ignores: ['models/embedded/**'],
    plugins: { quire: { rules: { 'domain-faces': domainFacesRule } } },
    rules: { 'quire/domain-faces': 'error' },
  },
  {
    // Error codes come from the table through its named factories (`errors.notLoggedIn()`), so
    // no call site picks a wire number; `new ApiError(code)` with a computed code stays possible.
    files: ['models/**/*.ts', 'api/**/*.ts', 'realtime/**/*.ts'],
    ignores: ['models/platform/errors.ts', 'models/embedded/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='ApiError'] > Literal.arguments:first-child",
          message: 'Use a named factory from models/platform errors (errors.failed(...), …).',
        },
      ],
    },
  },
  {
    // The web app reads the REST contract for its types only: zod stays out of the bundle.
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+api/contracts',
              allowTypeImports: true,
              message: 'Import the REST contract with `import type` only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests poke at raw driver documents and error shapes; typing every one adds noise, not safety.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
