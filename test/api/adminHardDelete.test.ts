/**
 * `adminItem/hardDeleteItem` over real HTTP: a site admin removes an item that is already in the
 * recycle bin for good — its pages, history, catalogs, members, team bindings, stars, tokens,
 * locks, drafts, mocks, share keys, comments, feedback, change log, subscriptions and the files
 * nothing else uses — while another item's rows stay; a live item and a non-admin are refused.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import path from 'node:path';
import type { Model } from 'mongoose';
import { Catalog } from '../../models/catalogs/schemas';
import { PageComment, PageFeedback } from '../../models/comments/schemas';
import { FilePage, UploadFile } from '../../models/files/schemas';
import {
  Item,
  ItemChangeLog,
  ItemGroup,
  ItemStar,
  ItemToken,
  ItemTop,
} from '../../models/items/schemas';
import { ItemMember, TeamItem, TeamItemMember } from '../../models/members/schemas';
import { Mock } from '../../models/mocks/schemas';
import { Subscription } from '../../models/notices/schemas';
import { Page, PageDraft, PageHistory, PageLock, SinglePage } from '../../models/pages/schemas';
import { events, type DomainEvents } from '../../models/platform';
import { PageRead } from '../../models/readMarkers/schemas';
import { addMember, bindTeamItem, makeItem, makeStaffedTeam } from '../helpers/factories';
import { makeCatalog, makePage, updatePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { filesUnder, uploadAs, samples } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
const { as } = suite;
let admin: TestUser;
let owner: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await makeUser({ admin: true });
  owner = await makeUser();
  member = await makeUser();
});

let nextRowId = 900_000;

/** An item with a row in every collection that hangs off an item; its page ids. */
async function populatedItem(): Promise<{ itemId: number; pageIds: number[] }> {
  const { item_id: itemId } = await makeItem(owner);
  const catId = await makeCatalog(owner, itemId, 'Guide');
  const first = await makePage(owner, itemId, { catId });
  await updatePage(owner, first, 'second version');
  const second = await makePage(owner, itemId);
  await addMember(itemId, member, 1);
  const team = await makeStaffedTeam(owner);
  await bindTeamItem(team.team_id, itemId, owner);
  const id = () => ++nextRowId;
  const now = Math.floor(Date.now() / 1000);
  const page = { item_id: itemId, page_id: first.page_id };
  await ItemStar.create({ id: id(), uid: member.uid, item_id: itemId });
  await ItemTop.create({ id: id(), uid: member.uid, item_id: itemId, addtime: now });
  await PageRead.create({
    uid: member.uid,
    item_id: itemId,
    since: now,
    pages: { [first.page_id]: now },
    updated_at: now,
  });
  await ItemToken.create({
    id: id(),
    item_id: itemId,
    api_key: `key${id()}`,
    api_token: `token${id()}`,
    addtime: now,
  });
  await ItemChangeLog.create({
    id: id(),
    uid: owner.uid,
    item_id: itemId,
    op_action_type: 'create',
    op_object_type: 'page',
  });
  await PageLock.create({
    id: id(),
    page_id: first.page_id,
    lock_uid: owner.uid,
    lock_to: now + 60,
    addtime: now,
  });
  await PageDraft.create({ ...page, state: Buffer.from([0]), updated_at: now });
  await Mock.create({ id: id(), unique_key: `mock${id()}`, uid: owner.uid, ...page });
  await SinglePage.create({ id: id(), unique_key: `share${id()}`, page_id: first.page_id });
  await PageComment.create({
    comment_id: id(),
    ...page,
    uid: member.uid,
    content: 'hi',
    addtime: now,
  });
  await PageFeedback.create({
    feedback_id: id(),
    ...page,
    voter: 'v',
    feedback_type: 1,
    addtime: now,
  });
  await Subscription.create({
    id: id(),
    uid: member.uid,
    object_id: first.page_id,
    object_type: 'page',
    action_type: 'update',
  });
  await uploadAs(suite.server.url, owner, 'own.png', samples.png(), {
    item_id: itemId,
    page_id: first.page_id,
  });
  return { itemId, pageIds: [first.page_id, second.page_id] };
}

/** How many rows each collection holds for the item (and its pages). */
async function census(itemId: number, pageIds: number[]): Promise<Record<string, number>> {
  const byItem: Record<string, Model<any>> = {
    Item,
    Page,
    Catalog,
    ItemMember,
    TeamItem,
    TeamItemMember,
    ItemStar,
    ItemTop,
    ItemToken,
    ItemChangeLog,
    PageRead,
    PageDraft,
    Mock,
    PageComment,
    PageFeedback,
    UploadFile,
  };
  const byPage: Record<string, Model<any>> = { PageHistory, PageLock, SinglePage, FilePage };
  const counts: Record<string, number> = {};
  for (const [name, model] of Object.entries(byItem))
    counts[name] = await model.countDocuments({ item_id: itemId });
  for (const [name, model] of Object.entries(byPage))
    counts[name] = await model.countDocuments({ page_id: { $in: pageIds } });
  counts.Subscription = await Subscription.countDocuments({ object_id: { $in: pageIds } });
  return counts;
}

describe('adminItem/hardDeleteItem', () => {
  test('removes a deleted item and all it holds; another item keeps every row', async () => {
    const doomed = await populatedItem();
    const kept = await populatedItem();
    // A file of the doomed item that the kept item's page also uses survives, unbound.
    const shared = await uploadAs(suite.server.url, owner, 'shared.png', samples.png(), {
      item_id: doomed.itemId,
      page_id: doomed.pageIds[1],
    });
    await FilePage.create({
      id: ++nextRowId,
      file_id: shared.file_id,
      item_id: kept.itemId,
      page_id: kept.pageIds[1],
      addtime: 1,
    });
    await ItemGroup.create({
      id: ++nextRowId,
      uid: member.uid,
      item_ids: `${kept.itemId},${doomed.itemId}`,
    });
    const ownFile = await UploadFile.findOne({
      item_id: doomed.itemId,
      display_name: 'own.png',
    }).lean();
    expect(ownFile!.storage_key).toBeTruthy();
    const stored = () => filesUnder(suite.server.dataDir);
    expect((await stored()).some((f) => f.endsWith(path.basename(ownFile!.storage_key)))).toBe(
      true,
    );
    const before = await census(doomed.itemId, doomed.pageIds);
    for (const [name, count] of Object.entries(before))
      expect([name, count > 0]).toEqual([name, true]);
    const keptBefore = await census(kept.itemId, kept.pageIds);
    await as(admin).ok('adminItem/deleteItem', { item_id: doomed.itemId });
    const seen: Array<[string, unknown]> = [];
    const stops = (['item.changed', 'page.purged', 'membership.changed'] as const).map((name) =>
      events.subscribe(
        name,
        (payload: DomainEvents[typeof name]) => void seen.push([name, payload]),
      ),
    );

    try {
      expect(await as(admin).ok('adminItem/hardDeleteItem', { item_id: doomed.itemId })).toEqual(
        [],
      );
    } finally {
      for (const stop of stops) stop();
    }

    const after = await census(doomed.itemId, doomed.pageIds);
    for (const [name, count] of Object.entries(after)) expect([name, count]).toEqual([name, 0]);
    expect(await census(kept.itemId, kept.pageIds)).toEqual({
      ...keptBefore,
      UploadFile: keptBefore.UploadFile + 1,
    });
    expect((await stored()).some((f) => f.endsWith(path.basename(ownFile!.storage_key)))).toBe(
      false,
    );
    expect(await UploadFile.findOne({ file_id: shared.file_id }).lean()).toMatchObject({
      item_id: kept.itemId,
    });
    expect(await FilePage.countDocuments({ file_id: shared.file_id })).toBe(1);
    expect((await ItemGroup.findOne({ uid: member.uid }).lean())!.item_ids).toBe(
      String(kept.itemId),
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        ['item.changed', { itemId: doomed.itemId, change: 'deleted', byUid: admin.uid }],
        ['page.purged', { itemId: doomed.itemId, pageIds: expect.arrayContaining(doomed.pageIds) }],
        [
          'membership.changed',
          {
            itemId: doomed.itemId,
            uids: expect.arrayContaining([member.uid]),
            change: 'removed',
            byUid: admin.uid,
          },
        ],
      ]),
    );
  });

  test('a live item is refused (10101) and keeps every row', async () => {
    const live = await populatedItem();
    const before = await census(live.itemId, live.pageIds);
    const refused = await as(admin).fail('adminItem/hardDeleteItem', { item_id: live.itemId });
    expect(refused.error_code).toBe(10101);
    expect(await census(live.itemId, live.pageIds)).toEqual(before);
  });

  test('a non-admin is refused (10103) even for a deleted item of their own', async () => {
    const { itemId, pageIds } = await populatedItem();
    await as(admin).ok('adminItem/deleteItem', { item_id: itemId });
    const before = await census(itemId, pageIds);
    const refused = await as(owner).fail('adminItem/hardDeleteItem', { item_id: itemId });
    expect(refused.error_code).toBe(10103);
    expect(await census(itemId, pageIds)).toEqual(before);
  });
});
