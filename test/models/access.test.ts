/**
 * The permission module (models/access/index.ts) against a real database: who may visit, edit, manage
 * or own an item, for every kind of actor, and how archive, delete, visit passwords and catalog
 * restrictions change that.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import {
  ANONYMOUS,
  itemAccess,
  itemAccessOfMany,
  authorizePageSave,
  permits,
  requireAction,
  requireItem,
  type Actor,
} from '../../models/access';
import { nextId } from '../../models/platform/counters';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Item } from '../../models/items/schemas/item';
import { apiSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';
import {
  actorOf,
  addMember,
  addTeamMember,
  bindTeamItem,
  makeItem,
  makeTeam,
  setTeamItemAuthority,
} from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

apiSuite();
const people: Record<string, TestUser> = {};
const actors: Record<string, Actor> = {};
let itemId: number;
let topCat: number;

beforeAll(async () => {
  for (const name of [
    'owner',
    'stranger',
    'reader',
    'editor',
    'restricted',
    'itemAdmin',
    'teamAdmin',
    'teamEditor',
    'teamItemAdmin',
  ])
    people[name] = await makeUser();
  people.siteAdmin = await makeUser({ admin: true });
  for (const [name, user] of Object.entries(people)) actors[name] = await actorOf(user);
  actors.anonymous = ANONYMOUS;

  ({ item_id: itemId } = await makeItem(people.owner, { password: 'secret-pw' }));
  topCat = await nextId('cat_id');
  await Catalog.create({
    cat_id: topCat,
    cat_name: 'Top',
    item_id: itemId,
    addtime: 1,
    parent_cat_id: 0,
    level: 2,
  });
  forgetCachedReads();
  await addMember(itemId, people.reader, 0);
  await addMember(itemId, people.editor, 1);
  await addMember(itemId, people.restricted, 1, [topCat]);
  await addMember(itemId, people.itemAdmin, 2);
  const { team_id } = await makeTeam(people.owner);
  await addTeamMember(team_id, people.teamAdmin, 2);
  await addTeamMember(team_id, people.teamEditor, 1);
  await addTeamMember(team_id, people.teamItemAdmin, 1);
  await bindTeamItem(team_id, itemId, people.owner);
  await setTeamItemAuthority(team_id, itemId, people.teamItemAdmin, 2);
});
type Row = [visit: boolean, edit: boolean, manage: boolean, owner: boolean];
const MATRIX: Record<string, Row> = {
  anonymous: [false, false, false, false],
  stranger: [false, false, false, false],
  reader: [true, false, false, false],
  editor: [true, true, false, false],
  restricted: [true, true, false, false],
  itemAdmin: [true, true, true, false],
  // A team admin manages the team, not its items: the binding gives them edit (authority 1).
  teamAdmin: [true, true, false, false],
  teamEditor: [true, true, false, false],
  teamItemAdmin: [true, true, true, false],
  owner: [true, true, true, true],
  siteAdmin: [true, true, true, false],
};

describe('the permission matrix of a private item', () => {
  test.each(Object.entries(MATRIX))(
    '%s gets visit/edit/manage/owner = %j',
    async (name, expected) => {
      const access = await itemAccess(actors[name], itemId);
      expect(access).not.toBeNull();
      expect([access!.visit, access!.edit, access!.manage, access!.owner]).toEqual(expected);
    },
  );

  test('the right visit password lets a stranger and an anonymous visitor read, and nothing more', async () => {
    for (const who of ['stranger', 'anonymous']) {
      const access = await itemAccess(actors[who], itemId, { itemPassword: 'secret-pw' });
      expect([access!.visit, access!.edit, access!.manage]).toEqual([true, false, false]);
      expect((await itemAccess(actors[who], itemId, { itemPassword: 'wrong' }))!.visit).toBe(false);
    }
  });

  test('only the catalog-restricted member carries a restriction; admins and owners never do', async () => {
    expect((await itemAccess(actors.restricted, itemId))!.catalogRestriction).toEqual([topCat]);
    for (const who of ['owner', 'itemAdmin', 'siteAdmin', 'editor', 'teamItemAdmin'])
      expect((await itemAccess(actors[who], itemId))!.catalogRestriction).toBeNull();
  });
});

describe('itemAccessOfMany', () => {
  test('gives every actor of the matrix what itemAccess gives them, with nothing kept and with everything kept', async () => {
    const everyone = Object.values(actors);
    const item = (await Item.findOne({ item_id: itemId }).lean())!;
    const one = async () =>
      new Map(
        await Promise.all(
          everyone.map(async (actor) => [actor.uid, await itemAccess(actor, item)] as const),
        ),
      );
    forgetCachedReads();
    const cold = await itemAccessOfMany(everyone, item);
    const warm = await itemAccessOfMany(everyone, item);
    const expected = await one();
    expect(cold).toEqual(expected);
    expect(warm).toEqual(expected);
    forgetCachedReads();
    await one(); // kept one by one, read all at once
    expect(await itemAccessOfMany(everyone, item)).toEqual(expected);
    expect(cold.get(actors.restricted.uid)).toMatchObject({
      visit: true,
      edit: true,
      catalogRestriction: [topCat],
    });
    expect(cold.get(actors.teamItemAdmin.uid)).toMatchObject({ manage: true, memberGroupId: 2 });
    expect(cold.get(actors.stranger.uid)).toMatchObject({ visit: false, memberGroupId: -1 });
  });
});

describe('archived and deleted items', () => {
  test('an archived item stays readable but refuses edit and manage to everyone; role reads still answer', async () => {
    const { item_id } = await makeItem(people.owner);
    await addMember(item_id, people.editor, 1);
    await Item.updateOne({ item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    for (const who of ['owner', 'siteAdmin', 'editor']) {
      const access = await itemAccess(actors[who], item_id);
      expect([access!.visit, access!.edit, access!.manage]).toEqual([true, false, false]);
    }
    await expect(requireItem(actors.owner, item_id, 'manage')).rejects.toMatchObject({
      code: 10303,
      message: expect.stringMatching(/archived/),
    });
    await expect(requireAction(actors.owner, 'item.readSettings', item_id)).resolves.toBeDefined();
    await expect(
      requireAction(actors.editor, 'item.readChangeLog', item_id),
    ).resolves.toBeDefined();
    await expect(requireAction(actors.editor, 'item.readSettings', item_id)).rejects.toMatchObject({
      code: 10303,
    });
    // Disposing of an item is a role too: archive freezes content, not disposal.
    const owner = (await itemAccess(actors.owner, item_id))!;
    expect(permits(owner, 'item.dispose')).toBe(true);
    expect(permits((await itemAccess(actors.siteAdmin, item_id))!, 'item.dispose')).toBe(true);
    expect(permits((await itemAccess(actors.editor, item_id))!, 'item.dispose')).toBe(false);
  });

  test('a deleted item grants nothing, not even to its owner or a site admin', async () => {
    const { item_id } = await makeItem(people.owner);
    await Item.updateOne({ item_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    expect(await itemAccess(actors.owner, item_id)).toBeNull();
    expect(await itemAccess(actors.siteAdmin, item_id)).toBeNull();
    await expect(requireItem(actors.owner, item_id, 'visit')).rejects.toMatchObject({
      code: 10101,
    });
  });
});

describe('named roles', () => {
  test('item.belong: the owner, site admins and members (personal or through a team) belong; a visitor with the password does not', async () => {
    const belongs = async (who: string, itemPassword?: string) =>
      permits((await itemAccess(actors[who], itemId, { itemPassword }))!, 'item.belong');
    for (const who of ['owner', 'siteAdmin', 'reader', 'editor', 'teamEditor'])
      expect(await belongs(who)).toBe(true);
    expect(await belongs('stranger', 'secret-pw')).toBe(false);
    expect(await belongs('anonymous', 'secret-pw')).toBe(false);
  });

  test('item.actAsOwner is the owner alone, not a site admin nor an item admin', async () => {
    const owns = async (who: string) =>
      permits((await itemAccess(actors[who], itemId))!, 'item.actAsOwner');
    expect(await owns('owner')).toBe(true);
    expect(await owns('siteAdmin')).toBe(false);
    expect(await owns('itemAdmin')).toBe(false);
  });
});

describe('authorizePageSave: item, page and target catalog in one answer', () => {
  const page = (facts: Partial<{ cat_id: number; is_draft: number; author_uid: number }> = {}) => ({
    cat_id: 0,
    is_draft: 0,
    author_uid: 0,
    ...facts,
  });

  test('an editor may save a page into the root or a catalog of the item', async () => {
    const target = { itemId, pageId: 5, page: page(), catId: topCat };
    await expect(authorizePageSave(actors.editor, target)).resolves.toMatchObject({ edit: true });
    await expect(authorizePageSave(actors.editor, { ...target, catId: 0 })).resolves.toBeDefined();
  });

  test('a reader is refused the edit before anything about the page is said', async () => {
    await expect(
      authorizePageSave(actors.reader, { itemId, pageId: 5, page: null, catId: 0 }),
    ).rejects.toMatchObject({ code: 10101, message: 'No edit permission' });
  });

  test("a missing page, someone else's draft and a page outside the restriction all answer 'Page does not exist'", async () => {
    const missing = { code: 10101, message: 'Page does not exist' };
    await expect(
      authorizePageSave(actors.editor, { itemId, pageId: 5, page: null, catId: 0 }),
    ).rejects.toMatchObject(missing);
    const draft = page({ is_draft: 1, author_uid: actors.owner.uid });
    await expect(
      authorizePageSave(actors.editor, { itemId, pageId: 5, page: draft, catId: 0 }),
    ).rejects.toMatchObject(missing);
    await expect(
      authorizePageSave(actors.owner, { itemId, pageId: 5, page: draft, catId: 0 }),
    ).resolves.toBeDefined();
    await expect(
      authorizePageSave(actors.restricted, { itemId, pageId: 5, page: page(), catId: topCat }),
    ).rejects.toMatchObject(missing);
  });

  test('a catalog the item does not hold, a negative one, or one outside the restriction does not exist', async () => {
    const gone = { message: 'Catalog does not exist' };
    for (const catId of [-1, topCat + 100_000])
      await expect(
        authorizePageSave(actors.editor, { itemId, pageId: 0, page: null, catId }),
      ).rejects.toMatchObject(gone);
    await expect(
      authorizePageSave(actors.restricted, { itemId, pageId: 0, page: null, catId: 0 }),
    ).rejects.toMatchObject(gone);
    await expect(
      authorizePageSave(actors.restricted, { itemId, pageId: 0, page: null, catId: topCat }),
    ).resolves.toBeDefined();
  });
});
