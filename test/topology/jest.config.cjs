/**
 * `npm run test:topology`: the scaled topology in network namespaces (topology.test.ts). Kept out
 * of `npm test` (it needs root, nginx and redis-server) and run by .ci/run as a step of its own.
 */
const base = require('../../jest.config.cjs');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/topology'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 180_000,
  maxWorkers: 1,
};
