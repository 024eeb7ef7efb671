/** Platform: configuration, database connection, logging, clock, ids, the error-code table, the domain-event catalogue and bus, blob storage and dumps. Depends on no domain. */
export { type Config, CONFIG_KEYS, ConfigError, DEFAULT_CHROMIUM_PATH, loadConfig } from './config';
export { nextId, nextIds, raiseCounter, reservedId } from './counters';
export { UNJOURNALED } from './writeConcerns';
export {
  type Database,
  type EngineHandle,
  engineSocketFits,
  engineSocketPath,
  ensureIndexes,
  isDatabaseUnreachable,
  openDatabase,
} from './db';
export { connection, defineModel } from './model';
export { type CollectionReport, exportDatabase, importDatabase } from './dump';
export {
  checkSchemaVersion,
  latestVersion,
  META_COLLECTION,
  migrateAtStart,
  type Migration,
  MigrationError,
} from './migrations';
export {
  type BackupManifest,
  BackupError,
  createBackup,
  restoreBackup,
  verifyBackup,
} from './backup';
export { ApiError, type ErrorCode, errors, failure, isApiError } from './errors';
export { connectRedis, type RedisEventRelay, startRedisEventRelay } from './eventBusRedis';
export {
  type IpcEventAck,
  type IpcEventMessage,
  type IpcEventRelay,
  startIpcEventRelay,
} from './eventBusIpc';
export {
  type DomainEvents,
  type EventBus,
  type EventName,
  holdEvents,
  type KanbanBoardShape,
  type KanbanCardShape,
  releaseEvents,
} from './events';
export {
  type QuireContext,
  contextForNewInstance,
  currentContext,
  emitInContext,
  events,
  perContext,
  releaseContext,
  runInContext,
} from './context';
export { createLogger, type Logger } from './log';
export {
  deepFreeze,
  forgetCachedReads,
  ReadCache,
  readCachesVersion,
  type ReadCacheOptions,
  type ReadCacheStats,
  type Watch,
} from './readCache';
export {
  configureFileStorage,
  fileStorage,
  type FileStorage,
  localStorageFor,
  newStorageKey,
  type StoredFile,
  S3FileStorage,
  type S3Settings,
  SwitchingFileStorage,
  type CloudResolver,
} from './storage';
export { definePort, type Port } from './port';
export { RawJson } from './rawJson';
export { formatNow, formatUnix, formatUnixOrEmpty, nowSeconds, setTimeZone } from './time';
export {
  countFailure,
  requireUnderLimit,
  throttle,
  type ThrottleName,
  tryConsume,
} from './throttle';
export {
  currentClient,
  newReadTrace,
  NOT_KEPT,
  noteExpiry,
  noteRead,
  noteUntracedRead,
  readsStillCurrent,
  type ReadTrace,
  runForClient,
  type TracedSource,
} from './requestClient';
export { checkForUpdate, configureUpdateFeed, type UpdateInfo } from './updates';
export {
  assertDepth,
  assertYamlTextDepth,
  isWithinDepth,
  MAX_INPUT_DEPTH,
  tooDeep,
} from './inputDepth';
export {
  type AddressPolicy,
  addressPolicy,
  type CheckedAddress,
  checkAddress,
  checkedLookup,
  checkLiteralHost,
  configureAddressPolicy,
  isAddressRefusal,
  pinnedLookup,
  policyFetch,
  resolveChecked,
} from './addressPolicy';
