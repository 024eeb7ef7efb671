/**
 * The catalog: databases → collections. Every change is expressed as a Mutation, applied here
 * and handed to persistence by the caller, so that recovery (replaying mutations) and normal
 * operation run the same code.
 */
import { calculateObjectSize, type Document } from 'bson';

export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
import type { CollectionImage, IndexSpec, Mutation } from './types';
import { Collection, ID_INDEX } from './collection';
import { canonicalKey } from './values';
import { ErrorCodes, fail } from './errors';
import { knownPutSize } from './persistence/codec';

/** Where a command reads and writes: the store itself, or a transaction's private copy of it. */
export interface Workspace {
  collection(db: string, name: string): Collection | undefined;
  /** Applies and records a mutation. */
  apply(m: Mutation): void;
  /** The sequence number the next change is stamped with. */
  readonly seq: number;
}

/** What applyMutation needs of where it writes: the store, or a transaction's copies of it. */
interface VersionedTarget {
  seq: number;
  /** Changes are remembered for write-conflict checks only while a transaction is open. */
  readonly tracksVersions: boolean;
}

export class Store implements Workspace {
  readonly dbs = new Map<string, Map<string, Collection>>();
  seq = 0;
  /** Transactions begun and neither committed nor aborted. */
  openTransactions = 0;

  get tracksVersions(): boolean {
    return this.openTransactions > 0;
  }

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  apply(m: Mutation): void {
    applyMutation(this, m);
  }

  loadImage(image: CollectionImage): void {
    const coll = new Collection(image.db, image.coll, image.options, image.indexes);
    for (const doc of image.docs) coll.put(doc, 0);
    this.setCollection(coll);
  }

  setCollection(coll: Collection): void {
    let db = this.dbs.get(coll.db);
    if (!db) this.dbs.set(coll.db, (db = new Map()));
    db.set(coll.name, coll);
  }

  dropCollection(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    const had = colls?.delete(name) ?? false;
    if (colls && colls.size === 0) this.dbs.delete(db);
    return had;
  }

  /** A consistent image of everything, cheap to take because stored documents are immutable. */
  capture(): CollectionImage[] {
    const images: CollectionImage[] = [];
    for (const colls of this.dbs.values()) {
      for (const c of colls.values()) {
        images.push({
          db: c.db,
          coll: c.name,
          options: c.options,
          indexes: c.indexSpecs(),
          docs: [...c.docs.values()],
        });
      }
    }
    return images;
  }
}

/** The one place a mutation changes a workspace (the store, or a transaction's copies). */
export function applyMutation(target: Store | TransactionWorkspaceLike, m: Mutation): void {
  target.seq++;
  const seq = target.tracksVersions ? target.seq : 0;
  switch (m.op) {
    case 'put': {
      const size = knownPutSize(m) ?? calculateObjectSize(m.doc, { checkKeys: false } as never);
      if (size > MAX_DOCUMENT_BYTES) {
        fail(
          ErrorCodes.BSONObjectTooLarge,
          `BSONObj size is invalid. Size must be between 0 and ${MAX_DOCUMENT_BYTES}(16MB)`,
        );
      }
      const coll = target.collection(m.db, m.coll) ?? createCollection(target, m.db, m.coll, {});
      coll.put(m.doc, seq);
      return;
    }
    case 'del':
      target.collection(m.db, m.coll)?.remove(canonicalKey(m.id), seq);
      return;
    case 'createColl':
      if (!target.collection(m.db, m.coll)) createCollection(target, m.db, m.coll, m.options);
      return;
    case 'dropColl':
      target.dropCollection(m.db, m.coll);
      return;
    case 'renameColl': {
      const coll = target.collection(m.db, m.coll);
      if (!coll) return;
      target.dropCollection(m.db, m.coll);
      target.dropCollection(m.toDb, m.toColl);
      const moved = new Collection(m.toDb, m.toColl, coll.options, coll.indexSpecs());
      for (const doc of coll.docs.values()) moved.put(doc, seq);
      target.setCollection(moved);
      return;
    }
    case 'createIndex': {
      const coll = target.collection(m.db, m.coll) ?? createCollection(target, m.db, m.coll, {});
      if (!coll.indexes.has(m.spec.name) && m.spec.name !== ID_INDEX.name) coll.addIndex(m.spec);
      return;
    }
    case 'dropIndex':
      target.collection(m.db, m.coll)?.indexes.delete(m.name);
      return;
    case 'dropDb':
      for (const c of target.collections(m.db)) target.dropCollection(m.db, c.name);
      return;
  }
}

export interface TransactionWorkspaceLike extends VersionedTarget {
  collection(db: string, name: string): Collection | undefined;
  collections(db: string): Collection[];
  setCollection(coll: Collection): void;
  dropCollection(db: string, name: string): boolean;
}

function createCollection(
  target: Store | TransactionWorkspaceLike,
  db: string,
  name: string,
  options: Document,
): Collection {
  validateNamespace(db, name);
  const coll = new Collection(db, name, options);
  target.setCollection(coll);
  return coll;
}

export function validateNamespace(db: string, name: string): void {
  if (!db || /[/\\. "$\0]/.test(db))
    fail(ErrorCodes.InvalidNamespace, `Invalid database name: '${db}'`);
  if (
    !name ||
    name.includes('$') ||
    name.includes('\0') ||
    name.startsWith('.') ||
    name.startsWith('system.')
  ) {
    if (!name.startsWith('system.'))
      fail(ErrorCodes.InvalidNamespace, `Invalid collection name: ${db}.${name}`);
  }
}

export function indexSpecEquals(a: IndexSpec, b: IndexSpec): boolean {
  const norm = (s: IndexSpec) =>
    JSON.stringify({
      key: s.key,
      unique: Boolean(s.unique),
      sparse: Boolean(s.sparse),
      partial: s.partialFilterExpression ?? null,
      ttl: s.expireAfterSeconds ?? null,
    });
  return norm(a) === norm(b);
}
