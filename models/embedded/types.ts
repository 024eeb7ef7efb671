/**
 * Shared shapes of the embedded engine. The in-memory store (store.ts), the persistence layer
 * (persistence/) and the dump tools (dump.ts) meet here.
 *
 * Invariant that makes cheap snapshots possible: a document object held by the store is never
 * mutated after it is stored. An update builds a new object and replaces the old one, so an image
 * captured at one instant can be serialised later, asynchronously, and still be that instant.
 */
import type { Document } from 'bson';

export type { Document };

/** An index as `listIndexes` reports it (and as mongodump's metadata.json stores it). */
export interface IndexSpec {
  v?: number;
  key: Record<string, 1 | -1 | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

/** One durable change. A batch of them is applied (and journaled) atomically. */
export type Mutation =
  | { op: 'put'; db: string; coll: string; doc: Document } // insert or replace, keyed by doc._id
  | { op: 'del'; db: string; coll: string; id: unknown }
  | { op: 'createColl'; db: string; coll: string; options: Document }
  | { op: 'dropColl'; db: string; coll: string }
  | { op: 'renameColl'; db: string; coll: string; toDb: string; toColl: string }
  | { op: 'createIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string }
  | { op: 'dropDb'; db: string };

/** Everything one collection holds; a snapshot is a list of these. */
export interface CollectionImage {
  db: string;
  coll: string;
  options: Document;
  indexes: IndexSpec[]; // includes the _id_ index
  docs: Document[];
}
