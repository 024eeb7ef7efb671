// ESLint flat config: JavaScript's and typescript-eslint's recommended rules everywhere, with the
// globals of where each folder runs (browser for web/, Node elsewhere). Formatting is Prettier's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// models/ is one folder per domain plus platform/ and the sealed embedded/ engine. From outside a
// folder only its public faces may be imported: `models/<domain>` (its index.ts) and
// `models/<domain>/schemas` (its collections, which import nothing but mongoose, so any domain may
// read another's without an import cycle). Tests may import anything.
const MODELS_FACES =
  'Import models/<domain> (its index.ts) or models/<domain>/schemas, not a file inside the folder; export what you need from the index.';

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
    files: ['api/**/*.ts', 'realtime/**/*.ts', 'server/**/*.ts', 'scripts/**/*.ts', 'web/**/*.{ts,tsx}', '*.ts'],
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
    // configuration: `models/platform/index.ts` would load mongoose and the rest of the app.
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
              regex: '(^|/)models/(?!platform/config$)[^/]+/(?!(schemas|index)$).+',
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
