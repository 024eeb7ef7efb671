/**
 * Durability for the embedded engine: journal (group commit, CRC-checked), snapshots, recovery,
 * and the data-directory lock. See layout.ts for the files and why a crash anywhere is safe.
 */
export { openPersistence } from './persistence';
export type { Persistence, PersistenceOptions, Recovered } from './persistence';
export { EngineLockedError } from './lock';
