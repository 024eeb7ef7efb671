/**
 * Fills a fresh data directory with the benchmark's documentation set through the model functions
 * the API uses (createUser, issueToken, createItem, saveCatalog, savePage), so every invariant,
 * counter and index applies exactly as for real data. Runs in the bench process against the data
 * directory *before* the server child opens it (the embedded engine locks its directory), then
 * closes the database so the journal is flushed.
 */
import type { Actor } from '../../models/access';
import { saveCatalog } from '../../models/catalogs';
import { ensureIndexes, openDatabase, createLogger } from '../../models/platform';
import { createItem } from '../../models/items';
import { addMembers, MAX_USERNAMES_PER_CALL } from '../../models/members';
import { savePage } from '../../models/pages';
import { subscribeToPage } from '../../models/notices';
import { createUser, issueToken } from '../../models/accounts';
import { catalogName, hasKeyword, pageMarkdown, pageTitle, RARE_KEYWORD } from './content';

export interface SeedOptions {
  dataDir: string;
  pages: number;
  /** Catalogs per level, top level first (default 10/50/200). */
  catalogLevels: number[];
  /** Page saves in flight while seeding (the engine handles them concurrently). */
  concurrency?: number;
  /**
   * Extra users for the realtime scenarios: editors of the item, subscribed to the first page
   * (so "save and notify" on it reminds every one of them).
   */
  realtimeUsers?: number;
}

export interface SeedUser {
  uid: number;
  username: string;
  token: string;
}

export interface SeedPage {
  pageId: number;
  /** 1-based number the content generator uses. */
  number: number;
  catId: number;
}

export interface SeedResult {
  uid: number;
  username: string;
  userToken: string;
  itemId: number;
  catalogs: number;
  pages: SeedPage[];
  keyword: string;
  /** Pages whose text contains the keyword: what item/search must find. */
  keywordHits: number;
  avgPageBytes: number;
  /** The realtime scenarios' users (editors of the item, subscribed to `pages[0]`). */
  realtimeUsers: SeedUser[];
  seconds: number;
}

/** Runs `task` over `inputs` with at most `limit` in flight; results in input order. */
async function pool<T, R>(
  inputs: T[],
  limit: number,
  task: (input: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await task(inputs[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}

/** Catalog ids of each level; a level's catalogs are spread evenly over the previous level's. */
async function seedCatalogs(actor: Actor, itemId: number, levels: number[]): Promise<number[]> {
  const all: number[] = [];
  let parents: { catId: number; path: number[] }[] = [{ catId: 0, path: [] }];
  for (const count of levels) {
    const level: { catId: number; path: number[] }[] = [];
    const childrenOf = new Map<number, number>();
    for (let j = 0; j < count; j++) {
      const parent = parents[Math.floor((j * parents.length) / count)];
      const position = (childrenOf.get(parent.catId) ?? 0) + 1;
      childrenOf.set(parent.catId, position);
      const path = [...parent.path, position];
      // Sequential: each save reads the item's catalog list to check limits and depth.
      const catId = await saveCatalog(actor, {
        itemId,
        catId: 0,
        catName: catalogName(path),
        parentCatId: parent.catId,
        sNumber: position,
      });
      level.push({ catId, path });
      all.push(catId);
    }
    parents = level;
  }
  return all;
}

/** Users made by createUser + issueToken, added as editors, subscribed to the page. */
async function seedRealtimeUsers(
  owner: Actor,
  itemId: number,
  pageId: number,
  count: number,
): Promise<SeedUser[]> {
  // bcrypt hashing dominates; a few at a time keeps the engine busy while one hashes.
  const users = await pool(
    Array.from({ length: count }, (_, i) => i + 1),
    4,
    async (n): Promise<SeedUser> => {
      const username = `bench_rt_${n}`;
      const user = await createUser({ username, password: `bench-${process.pid}-${n}` });
      const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
      return { uid: user.uid, username, token };
    },
  );
  for (let i = 0; i < users.length; i += MAX_USERNAMES_PER_CALL)
    await addMembers(owner, itemId, {
      usernames: users.slice(i, i + MAX_USERNAMES_PER_CALL).map((u) => u.username),
      member_group_id: 1,
      cat_ids: [],
    });
  for (const user of users) await subscribeToPage(user.uid, pageId);
  return users;
}

export async function seedDataDir(options: SeedOptions): Promise<SeedResult> {
  const started = process.hrtime.bigint();
  const database = await openDatabase({
    mongodbUri: '',
    dataDir: options.dataDir,
    logger: createLogger({ level: 'warn' }),
    role: 'tool',
  });
  try {
    await ensureIndexes();
    const username = 'bench_user';
    const user = await createUser({ username, password: `bench-${process.pid}-${Date.now()}` });
    const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
    const actor: Actor = { uid: user.uid, username, groupid: user.groupid };
    const { item_id: itemId } = await createItem(actor, {
      item_name: 'Benchmark handbook',
      item_description: 'Generated by npm run bench',
    });
    const catIds = await seedCatalogs(actor, itemId, options.catalogLevels);

    const numbers = Array.from({ length: options.pages }, (_, i) => i + 1);
    let bytes = 0;
    const pages = await pool(numbers, options.concurrency ?? 8, async (number) => {
      // Every catalog gets pages; a few stay at the item's root, as in real handbooks.
      const catId = catIds.length && number % 25 !== 0 ? catIds[number % catIds.length] : 0;
      const content = pageMarkdown(number);
      bytes += Buffer.byteLength(content);
      const { page } = await savePage(
        actor,
        { pageId: 0, itemId, title: pageTitle(number), content, catId, sNumber: number },
        { origin: 'import' },
      );
      return { pageId: page.page_id, number, catId };
    });

    const realtimeUsers =
      options.realtimeUsers && pages.length
        ? await seedRealtimeUsers(actor, itemId, pages[0].pageId, options.realtimeUsers)
        : [];

    return {
      uid: user.uid,
      username,
      userToken: token,
      itemId,
      catalogs: catIds.length,
      pages,
      keyword: RARE_KEYWORD,
      keywordHits: numbers.filter(hasKeyword).length,
      avgPageBytes: pages.length ? Math.round(bytes / pages.length) : 0,
      realtimeUsers,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    };
  } finally {
    await database.close();
  }
}
