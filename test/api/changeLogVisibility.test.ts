/**
 * `item/getChangeLog` names only what the reader could open (issue #16): a member restricted to
 * some catalogs sees no page or catalog titles outside them, and nobody sees another person's
 * draft titles — the same rules as the menu, search and page reads. The owner sees everything
 * of theirs.
 */
import { beforeAll, expect, test } from '@jest/globals';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
let owner: TestUser;
let restricted: TestUser;
let editor: TestUser;
let itemId: number;

beforeAll(async () => {
  owner = await makeUser();
  restricted = await makeUser();
  editor = await makeUser();
  itemId = (await makeItem(owner)).item_id;
  const open = await makeCatalog(owner, itemId, 'Open shelf');
  const secret = await makeCatalog(owner, itemId, 'Secret shelf');
  await makeCatalog(owner, itemId, 'Hidden sub', secret);
  await makePage(owner, itemId, { title: 'Open page', catId: open });
  await makePage(owner, itemId, { title: 'Secret page', catId: secret });
  await makePage(owner, itemId, { title: 'Root page', catId: 0 });
  await makePage(owner, itemId, { title: 'Owner draft plan', catId: open, isDraft: 1 });
  await addMember(itemId, restricted, 1, [open]);
  await addMember(itemId, editor, 1);
});

async function namesSeenBy(user: TestUser): Promise<{ total: number; names: string[] }> {
  const data = await suite.server.api
    .withToken(user.user_token)
    .ok<{ total: number; list: { op_object_name: string }[] }>('item/getChangeLog', {
      item_id: itemId,
      count: 100,
    });
  return { total: data.total, names: data.list.map((row) => row.op_object_name) };
}

test('a member restricted to one catalog sees only its titles, and no draft of others', async () => {
  const { total, names } = await namesSeenBy(restricted);
  expect(names).toEqual(expect.arrayContaining(['Open shelf', 'Open page']));
  for (const hidden of [
    'Secret shelf',
    'Hidden sub',
    'Secret page',
    'Root page',
    'Owner draft plan',
  ])
    expect(names).not.toContain(hidden);
  expect(total).toBe(names.length); // the count does not betray hidden rows either
});

test("an unrestricted editor sees every catalog and page, but not the owner's draft", async () => {
  const { names } = await namesSeenBy(editor);
  expect(names).toEqual(
    expect.arrayContaining([
      'Open shelf',
      'Secret shelf',
      'Hidden sub',
      'Secret page',
      'Root page',
    ]),
  );
  expect(names).not.toContain('Owner draft plan');
});

test('the owner sees their own draft', async () => {
  expect((await namesSeenBy(owner)).names).toContain('Owner draft plan');
});

test('paging counts only visible rows', async () => {
  const all = await namesSeenBy(restricted);
  const first = await suite.server.api
    .withToken(restricted.user_token)
    .ok<{ total: number; list: unknown[] }>('item/getChangeLog', {
      item_id: itemId,
      count: 1,
      page: 2,
    });
  expect(first.total).toBe(all.total);
  expect(first.list).toHaveLength(all.total >= 2 ? 1 : 0);
});
