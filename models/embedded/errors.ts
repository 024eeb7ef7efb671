/** MongoDB server errors as the driver expects them: `{ ok: 0, errmsg, code, codeName }`. */
import type { Document } from 'bson';

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  Unauthorized: 13,
  NoSuchKey: 4,
  FailedToParse: 9,
  TypeMismatch: 14,
  InvalidLength: 16,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  ConflictingUpdateOperators: 40,
  DollarPrefixedFieldName: 52,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  WriteConflict: 112,
  ConversionFailure: 241,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  TransactionTooOld: 225,
  OperationNotSupportedInTransaction: 263,
  Location40324: 40324,
  /** An unknown field in a command (MongoDB's IDL parser). */
  Location40415: 40415,
  BSONObjectTooLarge: 10334,
  DuplicateKey: 11000,
} as const;

const codeNames = new Map<number, string>(
  Object.entries(ErrorCodes).map(([name, code]) => [code, name]),
);

export class MongoServerFailure extends Error {
  readonly code: number;
  readonly extra: Document;
  readonly labels: string[];

  constructor(code: number, message: string, extra: Document = {}, labels: string[] = []) {
    super(message);
    this.code = code;
    this.extra = extra;
    this.labels = labels;
  }

  get codeName(): string {
    return codeNames.get(this.code) ?? 'UnknownError';
  }

  toReply(): Document {
    const reply: Document = {
      ok: 0,
      errmsg: this.message,
      code: this.code,
      codeName: this.codeName,
      ...this.extra,
    };
    if (this.labels.length) reply.errorLabels = this.labels;
    return reply;
  }
}

export function fail(code: number, message: string, extra?: Document, labels?: string[]): never {
  throw new MongoServerFailure(code, message, extra, labels);
}

/** Wraps anything thrown while running a command (mingo errors included) as a server error. */
export function asServerFailure(err: unknown): MongoServerFailure {
  if (err instanceof MongoServerFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new MongoServerFailure(ErrorCodes.BadValue, message);
}
