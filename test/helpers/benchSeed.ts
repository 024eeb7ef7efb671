/**
 * A small bench seed (scripts/bench/seed.ts's SeedResult) made in a test server's data through
 * the models, for the bench cells' own tests: an item of `pages` pages (scripts/bench/hugeItem.ts)
 * owned by a fresh user, and `users` further users standing for the realtime users.
 */
import { RARE_KEYWORD } from '../../scripts/bench/content';
import { seedHugeItem } from '../../scripts/bench/hugeItem';
import type { SeedResult } from '../../scripts/bench/seed';
import { actorOf, makeItem } from './factories';
import { makeUser } from './users';

export async function benchSeed(options: { pages: number; users: number }): Promise<SeedResult> {
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner);
  const item = await seedHugeItem(await actorOf(owner), itemId, {
    pages: options.pages,
    catalogLevels: [2],
  });
  const catOf = new Map<number, number>();
  for (const [catId, ids] of item.pagesByCat) for (const id of ids) catOf.set(id, catId);
  const users = await Promise.all(Array.from({ length: options.users }, () => makeUser()));
  return {
    uid: owner.uid,
    username: owner.username,
    userToken: owner.user_token,
    itemId,
    catalogs: item.levels.flat().length,
    pages: item.pageIds.map((pageId, i) => ({ pageId, number: i + 1, catId: catOf.get(pageId)! })),
    keyword: RARE_KEYWORD,
    keywordHits: item.keywordHits,
    avgPageBytes: 0,
    realtimeUsers: users.map((u) => ({ uid: u.uid, username: u.username, token: u.user_token })),
    seconds: item.seconds,
  };
}
