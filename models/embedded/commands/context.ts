/** What a command handler gets to work with. */
import type { Document, Long } from 'bson';
import type { CursorRegistry } from '../cursors';
import type { Store, Workspace } from '../store';
import type { Session, SessionRegistry } from '../transactions';
import { ErrorCodes, fail } from '../errors';

/**
 * The engine as command handlers see it. Declared here, not taken from the `Engine` class, so that
 * commands/ never imports engine.ts back (engine.ts imports the command tables).
 */
export interface EngineServices {
  readonly store: Store;
  readonly cursors: CursorRegistry;
  readonly sessions: SessionRegistry;
  readonly info: { host: string; port: number };
  readonly startedAt: Date;
  cursorZero(): Long;
  project(docs: Document[], projection: Document): Document[];
}

export interface CommandContext {
  engine: EngineServices;
  /** The command's `$db`. */
  db: string;
  /** Where reads and writes go: the store, or the session's open transaction. */
  ws: Workspace;
  inTransaction: boolean;
  session?: Session;
  connectionId: number;
}

export type Handler = (cmd: Document, ctx: CommandContext) => Document | Promise<Document>;

/** The collection a command names in its first field (`{ find: 'pages' }`). */
export function targetCollection(cmd: Document, field: string): string {
  const v = cmd[field];
  if (typeof v !== 'string' || v.length === 0)
    fail(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeof v}`);
  return v;
}

export function optionalDocument(v: unknown, what: string): Document | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    fail(ErrorCodes.TypeMismatch, `${what} must be an object`);
  return v as Document;
}
