/** What a command handler gets to work with. */
import type { Document } from 'bson';
import type { Workspace } from '../store';
import type { Engine } from '../engine';
import type { Session } from '../transactions';
import { ErrorCodes, fail } from '../errors';

export interface CommandContext {
  engine: Engine;
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
  if (typeof v !== 'string' || v.length === 0) fail(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeof v}`);
  return v;
}

export function optionalDocument(v: unknown, what: string): Document | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) fail(ErrorCodes.TypeMismatch, `${what} must be an object`);
  return v as Document;
}
