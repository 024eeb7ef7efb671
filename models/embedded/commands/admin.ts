/** Handshake, server information and session housekeeping. */
import { ObjectId, type Document } from 'bson';
import type { Handler } from './context';

const MAX_WIRE_VERSION = 21; // MongoDB 7.0

/**
 * A single-node replica set: the driver then offers sessions, transactions and retryable
 * writes exactly as against a production replica set. No topologyVersion: the driver polls.
 */
const hello: Handler = (cmd, ctx) => {
  const { host, port } = ctx.engine.info;
  const me = `${host}:${port}`;
  return {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    secondary: false,
    setName: 'quire',
    setVersion: 1,
    hosts: [me],
    primary: me,
    me,
    electionId: new ObjectId('7fffffff0000000000000001'),
    lastWrite: { lastWriteDate: new Date(), majorityWriteDate: new Date() },
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ...(cmd.saslSupportedMechs ? { saslSupportedMechs: [] } : {}),
    ok: 1,
  };
};

const buildInfo: Handler = () => ({
  version: '7.0.0',
  gitVersion: 'quire-embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16 * 1024 * 1024,
  storageEngines: ['quire-journal'],
  ok: 1,
});

const ok: Handler = () => ({ ok: 1 });

const endSessions: Handler = (cmd, ctx) => {
  for (const lsid of (cmd.endSessions as Document[]) ?? []) ctx.engine.sessions.end(lsid);
  return { ok: 1 };
};

const serverStatus: Handler = (_cmd, ctx) => ({
  host: `${ctx.engine.info.host}:${ctx.engine.info.port}`,
  version: '7.0.0',
  process: 'quire-embedded',
  pid: process.pid,
  uptime: Math.floor((Date.now() - ctx.engine.startedAt.getTime()) / 1000),
  localTime: new Date(),
  mem: { resident: Math.round(process.memoryUsage().rss / 1048576) },
  metrics: { cursor: { open: { total: ctx.engine.cursors.size } } },
  ok: 1,
});

export const adminCommands: Record<string, Handler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  endSessions,
  killAllSessions: ok,
  refreshSessions: ok,
  startSession: (_cmd, _ctx) => ({ id: { id: new ObjectId() }, timeoutMinutes: 30, ok: 1 }),
  serverStatus,
  connectionStatus: () => ({
    authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
    ok: 1,
  }),
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  getParameter: () => ({ featureCompatibilityVersion: { version: '7.0' }, ok: 1 }),
  hostInfo: () => ({ system: { hostname: 'localhost', numCores: 2 }, ok: 1 }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  commitTransaction: ok, // only reached outside a transaction context; see Engine.runInTransaction
  abortTransaction: ok,
};
