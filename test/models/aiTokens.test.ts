/**
 * AI tokens in models/: what is stored (a hash, never the raw token), how a token's limits ride
 * on the access Actor so the REST model functions themselves refuse what the token may not do,
 * and the per-user rate limit over all of a user's tokens.
 */
import { describe, expect, test } from '@jest/globals';
import { itemAccess } from '../../models/access';
import {
  authenticateAiToken,
  consumeAiTokenCall,
  createAiToken,
  hashToken,
  UserAiToken,
} from '../../models/aiTokens';
import { readPage, savePage } from '../../models/pages';
import { apiSuite } from '../helpers/apiSuite';
import { actorOf, makeItem } from '../helpers/factories';

const suite = apiSuite({ item: { item_name: 'Scoped' } });

async function tokenActor(params: Parameters<typeof createAiToken>[1]) {
  const { token } = await createAiToken(await actorOf(suite.owner), params);
  const found = await authenticateAiToken(token);
  if (!found) throw new Error('token did not authenticate');
  return { raw: token, ...found };
}

describe('AI tokens in models/', () => {
  test('only the SHA-256 of a token is stored', async () => {
    const { raw, token } = await tokenActor({ name: 'stored' });
    const row = await UserAiToken.findOne({ id: token.id }).lean();
    expect(row!.token_hash).toBe(hashToken(raw));
    expect(JSON.stringify(row)).not.toContain(raw.slice(3));
  });

  test("a read-only token's Actor may read but the REST save refuses it", async () => {
    const owner = await actorOf(suite.owner);
    const { page } = await savePage(
      owner,
      { pageId: 0, itemId: suite.itemId, title: 'P', content: 'text' },
      { origin: 'rest' },
    );
    const { actor } = await tokenActor({ permission: 'read' });
    const access = await itemAccess(actor, suite.itemId);
    expect(access).toMatchObject({ visit: true, edit: false, manage: false, owner: true });
    expect((await readPage(actor, page.page_id)).page.page_content).toBe('text');
    await expect(
      savePage(
        actor,
        { pageId: page.page_id, itemId: suite.itemId, title: 'P', content: 'changed' },
        { origin: 'rest' },
      ),
    ).rejects.toMatchObject({ code: 10101 });
  });

  test("a selected-items token's Actor gets nothing outside its items", async () => {
    const other = await makeItem(suite.owner);
    const { actor } = await tokenActor({ scope: 'selected', allowed_items: String(suite.itemId) });
    expect((await itemAccess(actor, suite.itemId))?.edit).toBe(true);
    expect(await itemAccess(actor, other.item_id)).toMatchObject({
      visit: false,
      edit: false,
      manage: false,
    });
  });

  test('the per-user limit counts all of a user’s tokens together', async () => {
    const limits = { perToken: 3, perUser: 4 };
    const uid = 900_001;
    for (let i = 0; i < 3; i++) expect(await consumeAiTokenCall(101, uid, limits)).toBeNull();
    expect(await consumeAiTokenCall(101, uid, limits)).toMatchObject({
      retry_after: expect.any(Number),
    });
    // A second token of the same user: its own count is fresh, the user's is nearly spent.
    expect(await consumeAiTokenCall(102, uid, limits)).toBeNull();
    const refused = await consumeAiTokenCall(102, uid, limits);
    expect(refused?.retry_after).toBeGreaterThan(0);
    expect(refused!.reset_at).toBeGreaterThan(Date.now() / 1000);
  });
});
