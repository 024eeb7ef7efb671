/**
 * Benchmark of the embedded MongoDB-wire engine as Quire uses it: mongoose operations over the
 * wire (sequential and with N operations in flight), the raw driver's `ping` as the protocol
 * ceiling, and the resident memory of 100,000 small documents.
 *
 *   npx tsx scripts/bench/engine.ts [--quick] [--json <path>] [--concurrency <n>]
 *
 * `runEngineBench()` is exported for `npm run bench`. Speed is measured here, never asserted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import mongoose, { Schema, type Types } from 'mongoose';
import { BSON, MongoClient, ObjectId } from 'mongodb';
import { startEmbeddedMongo } from '../../models/embedded';

export interface EngineBenchOptions {
  /** Fewer iterations and 20,000 instead of 100,000 documents for the memory figure. */
  quick?: boolean;
  /** Operations in flight for the concurrent column (default 16). */
  concurrency?: number;
  /** Also write the result as JSON to this path. */
  jsonPath?: string;
  /** Progress lines (default: stderr, so stdout stays the table). */
  log?: (line: string) => void;
}

export interface OperationResult {
  name: string;
  iterations: number;
  sequentialOpsPerSec: number;
  concurrentOpsPerSec: number;
  /** Sequential latency percentiles, milliseconds. */
  p50Ms: number;
  p99Ms: number;
}

export interface MemoryResult {
  documents: number;
  avgDocBytes: number;
  insertBatch: number;
  insertDocsPerSec: number;
  rssBeforeMB: number;
  rssAfterMB: number;
  rssDeltaMB: number;
  rssBytesPerDoc: number;
  heapUsedDeltaMB: number;
}

export interface EngineBenchResult {
  generatedAt: string;
  node: string;
  platform: string;
  cpus: number;
  quick: boolean;
  concurrency: number;
  operations: OperationResult[];
  memory: MemoryResult;
}

const MB = 1024 * 1024;
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/** A real `gc()` makes the before/after RSS readings comparable; exposed at runtime, no CLI flag needed. */
function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))];
}

async function measureSequential(iterations: number, op: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    await op(i);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSec: iterations / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function measureConcurrent(
  iterations: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < iterations) await op(next++);
    }),
  );
  return iterations / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** ~150 bytes of BSON each: the size of a typical Quire row (member, lock, star, token). */
function sampleDoc(i: number) {
  const id = String(i).padStart(7, '0');
  return {
    email: `user${id}@example.com`,
    name: `User ${id}`,
    uid: i,
    group: i % 100,
    tags: ['alpha', 'beta'],
    at: new Date(),
  };
}

export async function runEngineBench(options: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  const quick = options.quick ?? false;
  const concurrency = options.concurrency ?? 16;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const n = quick
    ? { ops: 400, warmup: 50, finds: 20, memoryDocs: 20_000 }
    : { ops: 3000, warmup: 200, finds: 100, memoryDocs: 100_000 };
  const gc = collectGarbage();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-engine-'));
  const engine = await startEmbeddedMongo({ dataDir, host: '127.0.0.1', port: 0 });
  const client = await MongoClient.connect(engine.uri);
  const conn = await mongoose.createConnection(engine.uri, { dbName: 'bench' }).asPromise();
  try {
    const User = conn.model(
      'BenchUser',
      new Schema({
        email: { type: String, unique: true },
        name: String,
        uid: Number,
        group: { type: Number, index: true }, // every request-path query in Quire is index-backed
        tags: [String],
        at: Date,
      }),
    );
    await User.init();

    // 1,000 documents in one group for the 1,000-doc find; they also serve findById/findOne/updateOne.
    const seeded = await User.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({ ...sampleDoc(1_000_000 + i), group: -1 })),
    );
    const ids: Types.ObjectId[] = seeded.map((d) => d._id);
    const emails = seeded.map((d) => d.email!);
    const admin = client.db('admin');
    let created = 0;
    const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length];

    const operations: Array<{
      name: string;
      iterations: number;
      op: (i: number) => Promise<unknown>;
    }> = [
      {
        name: 'ping (raw driver, protocol ceiling)',
        iterations: n.ops,
        op: () => admin.command({ ping: 1 }),
      },
      { name: 'Model.create', iterations: n.ops, op: () => User.create(sampleDoc(created++)) },
      { name: 'Model.findById', iterations: n.ops, op: (i) => User.findById(pick(ids, i)) },
      {
        name: 'Model.findOne by unique email',
        iterations: n.ops,
        op: (i) => User.findOne({ email: pick(emails, i) }),
      },
      {
        name: 'Model.updateOne by _id ($inc)',
        iterations: n.ops,
        op: (i) => User.updateOne({ _id: pick(ids, i) }, { $inc: { uid: 1 } }),
      },
      {
        name: 'Model.find 1,000 docs (lean)',
        iterations: n.finds,
        op: async () => {
          const docs = await User.find({ group: -1 }).lean();
          if (docs.length !== 1000) throw new Error(`expected 1000 documents, got ${docs.length}`);
        },
      },
    ];

    const results: OperationResult[] = [];
    for (const { name, iterations, op } of operations) {
      log(`bench: ${name} …`);
      for (let i = 0; i < Math.min(n.warmup, iterations); i++) await op(i);
      const seq = await measureSequential(iterations, op);
      const conc = await measureConcurrent(iterations, concurrency, op);
      results.push({
        name,
        iterations,
        sequentialOpsPerSec: round(seq.opsPerSec),
        concurrentOpsPerSec: round(conc),
        p50Ms: round(seq.p50, 3),
        p99Ms: round(seq.p99, 3),
      });
    }

    log(`bench: memory for ${n.memoryDocs.toLocaleString('en-US')} documents …`);
    const memory = await measureMemory(client, n.memoryDocs, gc);
    const result: EngineBenchResult = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: os.cpus().length,
      quick,
      concurrency,
      operations: results,
      memory,
    };
    if (options.jsonPath) await writeFile(options.jsonPath, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    await conn.close();
    await client.close();
    await engine.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function measureMemory(
  client: MongoClient,
  documents: number,
  gc: () => void,
): Promise<MemoryResult> {
  const BATCH = 1000;
  const coll = client.db('bench').collection('rss_docs');
  const avgDocBytes = BSON.calculateObjectSize({ _id: new ObjectId(), ...sampleDoc(documents) });
  gc();
  const before = process.memoryUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < documents; i += BATCH) {
    await coll.insertMany(
      Array.from({ length: Math.min(BATCH, documents - i) }, (_, k) => sampleDoc(i + k)),
    );
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  gc();
  const after = process.memoryUsage();
  const count = await coll.estimatedDocumentCount();
  if (count !== documents) throw new Error(`expected ${documents} documents, found ${count}`);
  return {
    documents,
    avgDocBytes,
    insertBatch: BATCH,
    insertDocsPerSec: round(documents / seconds),
    rssBeforeMB: round(before.rss / MB, 1),
    rssAfterMB: round(after.rss / MB, 1),
    rssDeltaMB: round((after.rss - before.rss) / MB, 1),
    rssBytesPerDoc: round((after.rss - before.rss) / documents),
    heapUsedDeltaMB: round((after.heapUsed - before.heapUsed) / MB, 1),
  };
}

/** The result as Markdown: one table for operations, one for memory. */
export function formatEngineBench(r: EngineBenchResult): string {
  const fmt = (v: number) => v.toLocaleString('en-US');
  const lines = [
    `### Embedded engine (${r.node}, ${r.platform}, ${r.cpus} CPUs${r.quick ? ', quick' : ''})`,
    '',
    `| operation | sequential ops/s | ${r.concurrency} concurrent ops/s | p50 ms | p99 ms | iterations |`,
    '|---|---:|---:|---:|---:|---:|',
    ...r.operations.map(
      (o) =>
        `| ${o.name} | ${fmt(o.sequentialOpsPerSec)} | ${fmt(o.concurrentOpsPerSec)} | ${o.p50Ms} | ${o.p99Ms} | ${fmt(o.iterations)} |`,
    ),
    '',
    '| memory | value |',
    '|---|---:|',
    `| documents (insertMany, batches of ${fmt(r.memory.insertBatch)}) | ${fmt(r.memory.documents)} |`,
    `| BSON bytes per document | ${fmt(r.memory.avgDocBytes)} |`,
    `| insert rate (docs/s) | ${fmt(r.memory.insertDocsPerSec)} |`,
    `| RSS before → after (MB) | ${r.memory.rssBeforeMB} → ${r.memory.rssAfterMB} |`,
    `| RSS growth (MB) | ${r.memory.rssDeltaMB} |`,
    `| RSS growth per document (bytes) | ${fmt(r.memory.rssBytesPerDoc)} |`,
    `| JS heap growth (MB) | ${r.memory.heapUsedDeltaMB} |`,
  ];
  return lines.join('\n');
}

function parseArgs(argv: string[]): EngineBenchOptions {
  const options: EngineBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') options.jsonPath = argv[++i];
    else if (arg === '--concurrency') options.concurrency = Number(argv[++i]);
    else
      throw new Error(
        `unknown argument: ${arg} (expected --quick, --json <path>, --concurrency <n>)`,
      );
  }
  if (options.jsonPath === undefined && argv.includes('--json'))
    throw new Error('--json needs a path');
  return options;
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  runEngineBench(parseArgs(process.argv.slice(2)))
    .then((result) => {
      process.stdout.write(`${formatEngineBench(result)}\n`);
      // Everything is closed above; exiting explicitly guarantees the script ends even if a
      // library leaves an idle timer behind.
      process.exit(0);
    })
    .catch((err: unknown) => {
      process.stderr.write(
        `engine bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    });
}
