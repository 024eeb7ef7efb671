/**
 * A tiny in-memory store for the durability tests: applies put/del batches and captures images,
 * enough to check what recovery hands back. Imported by jest suites and by child fixtures alike.
 */
import { EJSON } from 'bson';
import type { Recovered } from '../../../../models/embedded/persistence';
import type { CollectionImage, Document, Mutation } from '../../../../models/embedded/types';

/** A key for any _id value (EJSON keeps ObjectId apart from a string of the same hex). */
const idKey = (id: unknown): string => EJSON.stringify({ id }, { relaxed: false });

/** Documents of one namespace keyed by _id, in insertion order like the engine's store. */
export class MiniStore {
  readonly collections = new Map<string, Map<string, Document>>();

  static fromRecovered(recovered: Recovered): MiniStore {
    const store = new MiniStore();
    for (const image of recovered.images) {
      const docs = store.collection(image.db, image.coll);
      for (const doc of image.docs) docs.set(idKey(doc._id), doc);
    }
    for (const batch of recovered.batches) store.apply(batch);
    return store;
  }

  collection(db: string, coll: string): Map<string, Document> {
    const ns = `${db}.${coll}`;
    let docs = this.collections.get(ns);
    if (!docs) this.collections.set(ns, (docs = new Map()));
    return docs;
  }

  apply(batch: Mutation[]): void {
    for (const m of batch) {
      if (m.op === 'put') this.collection(m.db, m.coll).set(idKey(m.doc._id), m.doc);
      else if (m.op === 'del') this.collection(m.db, m.coll).delete(idKey(m.id));
      else throw new Error(`MiniStore does not apply ${m.op}`);
    }
  }

  capture(): CollectionImage[] {
    return [...this.collections].map(([ns, docs]) => {
      const [db, coll] = ns.split('.');
      return {
        db,
        coll,
        options: {},
        indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }],
        docs: [...docs.values()],
      };
    });
  }

  docs(db: string, coll: string): Document[] {
    return [...this.collection(db, coll).values()];
  }
}
