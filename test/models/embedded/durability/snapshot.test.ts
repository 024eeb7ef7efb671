/**
 * Snapshots and compaction against real files, and recovery from the file sets a crash can leave
 * at each step of a snapshot (built by copying the directory at those steps).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ObjectId } from 'bson';
import { openPersistence } from '../../../../models/embedded/persistence';
import type { CollectionImage, Document, Mutation } from '../../../../models/embedded/types';
import { makeTempDir, MiniStore, removeDir } from './helpers';

const dirs: string[] = [];
const tempDir = (label: string): string => {
  const dir = makeTempDir(label);
  dirs.push(dir);
  return dir;
};
let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('snapshot');
});
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const put = (coll: string, id: unknown, extra: Document = {}): Mutation => ({
  op: 'put',
  db: 'app',
  coll,
  doc: { _id: id, ...extra },
});
const gen = (n: number): string => String(n).padStart(12, '0');
const dataFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir)
    .filter((name) => name !== 'engine.lock')
    .sort();

/** Opens, and mirrors appends into a MiniStore the way the engine applies before journaling. */
async function openMirrored(dir: string, options: { snapshotJournalBytes?: number } = {}) {
  const { persistence, recovered } = await openPersistence({ dataDir: dir, ...options });
  const store = MiniStore.fromRecovered(recovered);
  const write = (batch: Mutation[]): Promise<void> => {
    store.apply(batch);
    return persistence.append(batch);
  };
  return { persistence, recovered, store, write };
}

async function contentOf(dir: string): Promise<string[]> {
  const { persistence, recovered } = await openPersistence({ dataDir: dir });
  await persistence.close();
  const store = MiniStore.fromRecovered(recovered);
  return [...store.collections]
    .flatMap(([ns, docs]) => [...docs.values()].map((d) => `${ns}:${JSON.stringify(d)}`))
    .sort();
}

/** Copies the data files (not the lock) of `from` into `to`: the disk as a crash would leave it. */
function copyDataFiles(from: string, to: string, only?: (name: string) => boolean): void {
  for (const name of dataFiles(from)) {
    if (!only || only(name)) fs.copyFileSync(path.join(from, name), path.join(to, name));
  }
}

describe('snapshot and compaction', () => {
  it('recovers snapshot content plus only the batches appended after it, and deletes superseded files', async () => {
    const { persistence, store, write } = await openMirrored(dataDir);
    for (let i = 0; i < 50; i++) await write([put('a', i, { v: i }), put('b', `k${i}`)]);
    await write([{ op: 'del', db: 'app', coll: 'a', id: 7 }]);
    await persistence.snapshot(() => store.capture());
    await write([put('a', 1000), { op: 'del', db: 'app', coll: 'b', id: 'k3' }]);
    await persistence.close();

    expect(dataFiles(dataDir)).toEqual([`journal-${gen(2)}.log`, `snapshot-${gen(2)}.snap`]);
    const { persistence: again, recovered } = await openPersistence({ dataDir });
    await again.close();
    expect(recovered.images.map((i) => [i.db, i.coll, i.docs.length])).toEqual([
      ['app', 'a', 49],
      ['app', 'b', 50],
    ]);
    expect(recovered.batches).toHaveLength(1);
    const rebuilt = MiniStore.fromRecovered(recovered);
    expect(rebuilt.docs('app', 'a')).toHaveLength(50);
    expect(rebuilt.docs('app', 'b').map((d) => d._id)).not.toContain('k3');
  });

  it('round-trips collection options, index specs, empty collections and many documents', async () => {
    const images: CollectionImage[] = [
      {
        db: 'quire',
        coll: 'page',
        options: { validator: { $jsonSchema: { required: ['page_id'] } } },
        indexes: [
          { v: 2, key: { _id: 1 }, name: '_id_' },
          {
            v: 2,
            key: { item_id: 1, s_number: -1 },
            name: 'item_id_1_s_number_-1',
            unique: true,
            partialFilterExpression: { item_id: { $gt: 0 } },
          },
        ],
        docs: Array.from({ length: 30_000 }, (_, i) => ({
          _id: new ObjectId(),
          page_id: i,
          item_id: i % 7,
          body: 'x'.repeat(i % 300),
        })),
      },
      {
        db: 'quire',
        coll: 'empty',
        options: {},
        indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }],
        docs: [],
      },
      {
        db: 'other',
        coll: 'ttl',
        options: {},
        indexes: [{ v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 60 }],
        docs: [{ _id: 1, at: new Date(0) }],
      },
    ];
    const { persistence } = await openPersistence({ dataDir });
    await persistence.snapshot(() => images);
    await persistence.close();
    const { persistence: again, recovered } = await openPersistence({ dataDir });
    await again.close();
    expect(
      recovered.images.map(({ db, coll, options, indexes }) => ({ db, coll, options, indexes })),
    ).toEqual(images.map(({ db, coll, options, indexes }) => ({ db, coll, options, indexes })));
    expect(recovered.images.map((i) => i.docs.length)).toEqual([30_000, 0, 1]);
    expect(recovered.images[0].docs[29_999]).toEqual(images[0].docs[29_999]);
    expect(recovered.images[0].docs[123]._id.equals(images[0].docs[123]._id)).toBe(true);
  });

  it('captures synchronously and runs one snapshot at a time', async () => {
    const { persistence, store, write } = await openMirrored(dataDir);
    await write([put('a', 1)]);
    let captures = 0;
    const capture = (): CollectionImage[] => {
      captures++;
      return store.capture();
    };
    const first = persistence.snapshot(capture);
    expect(captures).toBe(1); // called before snapshot() returned
    const appendedDuring = write([put('a', 2)]); // lands in the new journal, after the image
    const second = persistence.snapshot(capture);
    expect(second).toBe(first);
    await Promise.all([first, second, appendedDuring]);
    expect(captures).toBe(1);
    await persistence.close();
    const { persistence: again, recovered } = await openPersistence({ dataDir });
    await again.close();
    expect(recovered.images[0].docs.map((d) => d._id)).toEqual([1]);
    expect(recovered.batches).toEqual([[put('a', 2)]]);
  });

  it('turns shouldSnapshot() on past the journal threshold, off while a snapshot runs and after it', async () => {
    const { persistence, store, write } = await openMirrored(dataDir, {
      snapshotJournalBytes: 4096,
    });
    expect(persistence.shouldSnapshot()).toBe(false);
    while (!persistence.shouldSnapshot())
      await write([put('a', new ObjectId(), { pad: 'y'.repeat(100) })]);
    const running = persistence.snapshot(() => store.capture());
    expect(persistence.shouldSnapshot()).toBe(false);
    await running;
    expect(persistence.shouldSnapshot()).toBe(false);
    await persistence.close();
    // Journal bytes found at open count as well.
    const reopened = await openMirrored(dataDir, { snapshotJournalBytes: 100 });
    expect(reopened.persistence.shouldSnapshot()).toBe(false);
    await reopened.write([put('a', 'z', { pad: 'y'.repeat(200) })]);
    await reopened.persistence.close();
    const third = await openPersistence({ dataDir, snapshotJournalBytes: 100 });
    expect(third.persistence.shouldSnapshot()).toBe(true);
    await third.persistence.close();
  });

  it('compacts across several snapshots, keeping one snapshot and one journal', async () => {
    const { persistence, store, write } = await openMirrored(dataDir);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 20; i++) await write([put('a', round * 100 + i)]);
      await persistence.snapshot(() => store.capture());
    }
    await persistence.close();
    expect(dataFiles(dataDir)).toEqual([`journal-${gen(5)}.log`, `snapshot-${gen(5)}.snap`]);
    expect(await contentOf(dataDir)).toHaveLength(80);
  });
});

describe('recovery from a crash at each step of a snapshot', () => {
  /**
   * Builds the directory states around one snapshot: `before` (old snapshot 2 + journal 2 with
   * batches B), `after` (snapshot 3 + journal 3 with batches C), and the expected contents.
   */
  async function statesAroundASnapshot() {
    const live = tempDir('live');
    const before = tempDir('before');
    const after = tempDir('after');
    const { persistence, store, write } = await openMirrored(live);
    for (let i = 0; i < 30; i++) await write([put('a', i), put('b', i)]);
    await persistence.snapshot(() => store.capture()); // snapshot 2
    for (let i = 30; i < 60; i++) await write([put('a', i), put('b', i)]);
    await write([
      { op: 'del', db: 'app', coll: 'a', id: 0 },
      { op: 'del', db: 'app', coll: 'b', id: 0 },
    ]);
    copyDataFiles(live, before);
    await persistence.snapshot(() => store.capture()); // snapshot 3
    copyDataFiles(live, after);
    for (let i = 60; i < 70; i++) await write([put('a', i), put('b', i)]);
    await persistence.close();
    return { live, before, after, full: await contentOf(live), atSnapshot: await contentOf(after) };
  }

  it('ignores and removes a half-written snapshot temp file (crash while writing it)', async () => {
    const { before, after, atSnapshot } = await statesAroundASnapshot();
    const crashed = tempDir('crash-writing');
    copyDataFiles(before, crashed);
    // Rotation happened (journal 3 exists, header only), the temp file is half written.
    copyDataFiles(after, crashed, (name) => name.startsWith('journal-'));
    const snap = fs.readFileSync(path.join(after, `snapshot-${gen(3)}.snap`));
    fs.writeFileSync(
      path.join(crashed, `snapshot-${gen(3)}.snap.tmp`),
      snap.subarray(0, snap.length >> 1),
    );

    expect(await contentOf(crashed)).toEqual(atSnapshot);
    expect(dataFiles(crashed)).toEqual([
      `journal-${gen(2)}.log`,
      `journal-${gen(3)}.log`,
      `snapshot-${gen(2)}.snap`,
    ]);
  });

  it('recovers when the crash came right after rotation, before any snapshot byte', async () => {
    const { before, after, atSnapshot } = await statesAroundASnapshot();
    const crashed = tempDir('crash-rotated');
    copyDataFiles(before, crashed);
    copyDataFiles(after, crashed, (name) => name === `journal-${gen(3)}.log`);
    expect(await contentOf(crashed)).toEqual(atSnapshot);
    // Appends continue in the newest journal, and a later snapshot compacts everything.
    const { persistence, store, write } = await openMirrored(crashed);
    await write([put('a', 'later')]);
    await persistence.snapshot(() => store.capture());
    await persistence.close();
    expect(await contentOf(crashed)).toEqual([...atSnapshot, 'app.a:{"_id":"later"}'].sort());
  });

  it('uses the new snapshot and removes the superseded files when the crash came before compaction', async () => {
    const { live, before, after, full, atSnapshot } = await statesAroundASnapshot();
    const crashed = tempDir('crash-before-delete');
    copyDataFiles(before, crashed);
    copyDataFiles(after, crashed);
    expect(await contentOf(crashed)).toEqual(atSnapshot);
    expect(dataFiles(crashed)).toEqual([`journal-${gen(3)}.log`, `snapshot-${gen(3)}.snap`]);

    // Halfway through deleting: the old snapshot is gone, the old journal is not.
    const halfway = tempDir('crash-mid-delete');
    copyDataFiles(before, halfway, (name) => name.startsWith('journal-'));
    copyDataFiles(live, halfway);
    expect(await contentOf(halfway)).toEqual(full);
  });

  it('falls back to the previous snapshot when the newest one is damaged and its journals still exist', async () => {
    const { before, after, atSnapshot } = await statesAroundASnapshot();
    const crashed = tempDir('damaged-newest');
    copyDataFiles(before, crashed);
    copyDataFiles(after, crashed);
    const file = path.join(crashed, `snapshot-${gen(3)}.snap`);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length >> 1] ^= 0x01;
    fs.writeFileSync(file, bytes);

    const { persistence, recovered } = await openPersistence({ dataDir: crashed });
    await persistence.close();
    expect(recovered.repairs.join('\n')).toMatch(
      /checksum mismatch.*moved aside as snapshot-000000000003\.snap\.damaged-/,
    );
    expect(await contentOf(crashed)).toEqual(atSnapshot);
  });

  it('refuses to open, rather than lose history, when the only snapshot is damaged and its journals were compacted', async () => {
    const { after } = await statesAroundASnapshot();
    const file = path.join(after, `snapshot-${gen(3)}.snap`);
    fs.truncateSync(file, fs.statSync(file).size - 3);
    await expect(openPersistence({ dataDir: after })).rejects.toThrow(
      /snapshot 3 is damaged.*restore the data directory from a backup/,
    );
  });

  it('recovers from a directory holding every generation at once (many crashes mid-compaction)', async () => {
    const { live, before, after, full } = await statesAroundASnapshot();
    const crashed = tempDir('all-generations');
    copyDataFiles(before, crashed);
    copyDataFiles(after, crashed);
    copyDataFiles(live, crashed);
    fs.writeFileSync(path.join(crashed, `snapshot-${gen(2)}.snap.tmp`), 'stale');
    expect(await contentOf(crashed)).toEqual(full);
    expect(dataFiles(crashed)).toEqual([`journal-${gen(3)}.log`, `snapshot-${gen(3)}.snap`]);
  });
});

describe('snapshot failures', () => {
  it('keeps every write when a snapshot cannot be written, and a later snapshot still compacts', async () => {
    const { persistence, store, write } = await openMirrored(dataDir);
    await write([put('a', 1)]);
    const unencodable: CollectionImage[] = [
      { db: 'app', coll: 'a', options: {}, indexes: [], docs: [{ 'nul\u0000key': 1 }] },
    ];
    await expect(persistence.snapshot(() => unencodable)).rejects.toThrow(/null bytes/);
    expect(dataFiles(dataDir).some((name) => name.endsWith('.tmp'))).toBe(false);
    await write([put('a', 2)]);
    await persistence.snapshot(() => store.capture());
    await write([put('a', 3)]);
    await persistence.close();
    expect(dataFiles(dataDir)).toEqual([`journal-${gen(3)}.log`, `snapshot-${gen(3)}.snap`]);
    expect(await contentOf(dataDir)).toEqual([
      'app.a:{"_id":1}',
      'app.a:{"_id":2}',
      'app.a:{"_id":3}',
    ]);
  });
});
