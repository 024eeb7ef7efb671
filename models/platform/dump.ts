/**
 * `db:export` / `db:import` in mongodump's layout, so a dump moves freely between the embedded
 * engine, a real MongoDB (`mongorestore` reads it) and back:
 *
 *   <dir>/<db>/<collection>.bson           the documents, concatenated BSON
 *   <dir>/<db>/<collection>.metadata.json  {options, indexes, collectionName, type} as canonical EJSON
 *
 * Only the official driver is used (a `Db` handle), never engine internals: it works against any
 * MongoDB. Documents are copied as raw BSON on export and decoded without type promotion on import,
 * so int32/int64/double/decimal and regex flags survive the round trip unchanged.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { BSON, EJSON, type Document } from 'bson';
import type { Db, MongoClient } from 'mongodb';
import { events } from './context';

export interface CollectionReport {
  name: string;
  documents: number;
  indexes: number;
}

const IMPORT_BATCH = 1000;

function safeName(collection: string): string {
  // Collection names may not contain '/' or NUL; refuse anything that could leave the folder.
  if (!collection || /[/\\\0]/.test(collection) || collection.startsWith('.'))
    throw new Error(`Refusing collection name ${JSON.stringify(collection)}`);
  return collection;
}

async function userCollections(db: Db): Promise<{ name: string; options: Document }[]> {
  const infos = await db.listCollections({}, { nameOnly: false }).toArray();
  return infos
    .filter(
      (info) => (info.type ?? 'collection') === 'collection' && !info.name.startsWith('system.'),
    )
    .map((info) => ({ name: info.name, options: ('options' in info ? info.options : {}) ?? {} }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface ExportOptions {
  /**
   * Read every collection at one point in time: a read-only transaction with snapshot read
   * concern (MongoDB replica sets and the embedded engine; a standalone mongod refuses it). Without
   * it each collection is read as it is when its turn comes, and writes made meanwhile can leave
   * the collections out of step (a page without its history row).
   */
  snapshotOf?: MongoClient;
}

/** Writes every collection of `db` under `<dir>/<db name>/`. */
export async function exportDatabase(
  db: Db,
  dir: string,
  options: ExportOptions = {},
): Promise<CollectionReport[]> {
  const target = path.join(dir, db.databaseName);
  await fsp.mkdir(target, { recursive: true });
  // Metadata first: listCollections and listIndexes are not allowed inside a transaction.
  const collections: { name: string; indexes: Document[] }[] = [];
  for (const { name, options: collectionOptions } of await userCollections(db)) {
    safeName(name);
    const indexes = await db.collection(name).listIndexes().toArray();
    const metadata = {
      options: collectionOptions,
      indexes,
      collectionName: name,
      type: 'collection',
    };
    await fsp.writeFile(
      path.join(target, `${name}.metadata.json`),
      EJSON.stringify(metadata, { relaxed: false }),
    );
    collections.push({ name, indexes });
  }

  const session = options.snapshotOf?.startSession();
  session?.startTransaction({ readConcern: { level: 'snapshot' } });
  const reports: CollectionReport[] = [];
  try {
    for (const { name, indexes } of collections) {
      const out = fs.createWriteStream(path.join(target, `${name}.bson`));
      let documents = 0;
      try {
        // raw: each document arrives as its exact BSON bytes.
        const cursor = db.collection(name).find({}, { raw: true, session });
        for await (const bytes of cursor) {
          if (!out.write(bytes as unknown as Uint8Array)) await once(out, 'drain');
          documents++;
        }
      } finally {
        out.end();
        await once(out, 'close');
      }
      reports.push({ name, documents, indexes: indexes.length });
    }
  } finally {
    // Nothing was written: ending the read-only transaction either way releases the snapshot.
    if (session?.inTransaction()) await session.abortTransaction().catch(() => undefined);
    await session?.endSession();
  }
  return reports;
}

/** Yields the documents of a .bson file one by one without loading the whole file. */
export async function* readBsonFile(file: string): AsyncGenerator<Document> {
  const handle = await fsp.open(file, 'r');
  try {
    let pending = Buffer.alloc(0);
    const chunk = Buffer.alloc(1 << 20);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead > 0) pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      while (pending.length >= 4) {
        const size = pending.readInt32LE(0);
        if (size < 5) throw new Error(`${file}: corrupt document length ${size}`);
        if (pending.length < size) break;
        yield BSON.deserialize(pending.subarray(0, size), {
          promoteValues: false,
          bsonRegExp: true,
        });
        pending = pending.subarray(size);
      }
      if (bytesRead === 0) {
        if (pending.length > 0) throw new Error(`${file}: truncated after the last document`);
        return;
      }
    }
  } finally {
    await handle.close();
  }
}

/** Finds the folder holding the .bson files: `<dir>/<dbName>`, the only db folder, or `<dir>`. */
async function dumpFolder(dir: string, dbName: string): Promise<string> {
  const hasBson = async (folder: string) =>
    (await fsp.readdir(folder)).some((f) => f.endsWith('.bson'));
  const named = path.join(dir, dbName);
  if (fs.existsSync(named) && (await hasBson(named))) return named;
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  const candidates: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && (await hasBson(path.join(dir, entry.name))))
      candidates.push(path.join(dir, entry.name));
  }
  if (candidates.length === 1) return candidates[0];
  if (await hasBson(dir)) return dir;
  throw new Error(
    candidates.length > 1
      ? `${dir} holds several databases; point at one of: ${candidates.join(', ')}`
      : `No .bson files under ${dir}`,
  );
}

/**
 * Restores a dump into `db`. Each collection present in the dump replaces the collection of the
 * same name (dropped first); collections not in the dump are left alone.
 */
export async function importDatabase(db: Db, dir: string): Promise<CollectionReport[]> {
  const folder = await dumpFolder(dir, db.databaseName);
  const files = (await fsp.readdir(folder)).filter((f) => f.endsWith('.bson')).sort();
  const reports: CollectionReport[] = [];

  for (const file of files) {
    const name = safeName(file.slice(0, -'.bson'.length));
    const metadataFile = path.join(folder, `${name}.metadata.json`);
    const metadata: { options?: Document; indexes?: Document[] } = fs.existsSync(metadataFile)
      ? (EJSON.parse(await fsp.readFile(metadataFile, 'utf8'), { relaxed: false }) as Document)
      : {};

    await db
      .collection(name)
      .drop()
      .catch((error: { code?: number }) => {
        if (error.code !== 26) throw error; // 26 NamespaceNotFound: nothing to drop
      });
    const options = metadata.options ?? {};
    await db.createCollection(name, Object.keys(options).length ? options : undefined);

    let documents = 0;
    let batch: Document[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await db.collection(name).insertMany(batch, { ordered: true });
      documents += batch.length;
      batch = [];
    };
    for await (const doc of readBsonFile(path.join(folder, file))) {
      batch.push(doc);
      if (batch.length >= IMPORT_BATCH) await flush();
    }
    await flush();

    // Indexes after the data, as mongorestore does: one build instead of one update per insert.
    const indexes = (metadata.indexes ?? [])
      .filter((index) => index.name !== '_id_')
      .map((index) => {
        const spec = { ...index };
        delete spec.v;
        delete spec.ns;
        delete spec.background;
        return spec;
      });
    if (indexes.length > 0) await db.command({ createIndexes: name, indexes });
    reports.push({ name, documents, indexes: indexes.length + 1 });
  }
  // Every process's read model held the data this restore replaced.
  events.publish('data.replaced', {});
  return reports;
}
