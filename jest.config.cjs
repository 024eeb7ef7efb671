/** Jest runs TypeScript through SWC (no type-check here: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  // The network-namespace topology needs root: `npm run test:topology` runs it (.ci/run does).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/topology/'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2022',
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/'],
  testTimeout: 60000,
  maxWorkers: 2,
};
