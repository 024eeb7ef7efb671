/**
 * ShowDoc's own front end against Quire (issue 32), driven from a real page in Chromium: its
 * "add member" dialog (one `user/allUser` with an empty username, filtered in the browser, then
 * `member/save` per chosen name — form posts with the stored `userinfo` token, as its request
 * helper sends them) and its back office's first calls (GETs, which carry no token: the helper
 * puts the token in a body a GET never sends). Both must succeed: a 10102 would log ShowDoc's
 * user out. Also Quire's own screens the issue names: `/item/add` opens the create dialog, the
 * notify dialog links to the item's member settings and the team list in a new tab, and a type-3
 * item's reader offers its owner no edit icon and no manager menu.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { Item } from '../../models/items/schemas/item';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { forgetCachedReads } from '../../models/platform';
import { addTeamMember, makeItem, makeTeam } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { openEditor } from './editorHelpers';
import { browserSuite } from './helpers';

let owner: TestUser;
let teammate: TestUser;
let admin: TestUser;
let itemId: number;

const suite = browserSuite({
  setup: async () => {
    [owner, teammate, admin] = await Promise.all([
      makeUser(),
      makeUser(),
      makeUser({ admin: true }),
    ]);
    // The teammate works with the owner (a team), but is not a member of the item yet.
    const team = await makeTeam(owner);
    await addTeamMember(team.team_id, teammate);
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Shared docs' }));
  },
});

interface Envelope {
  error_code: number;
  error_message?: string;
  data?: unknown;
}

/** ShowDoc's request helper, run in the page: form POST with the stored token, GET without. */
function showdocRequest(
  page: Page,
  url: string,
  data: Record<string, string>,
  method: 'get' | 'post' = 'post',
): Promise<Envelope> {
  return page.evaluate(
    async ({ url, data, method }) => {
      const stored = JSON.parse(localStorage.getItem('userinfo') ?? 'null') as {
        user_token?: string;
      } | null;
      const body = new URLSearchParams(data);
      if (stored?.user_token) body.set('user_token', stored.user_token);
      const response =
        method === 'get'
          ? await fetch(url)
          : await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body,
            });
      return (await response.json()) as Envelope;
    },
    { url, data, method },
  );
}

test("ShowDoc's add-member dialog: user/allUser with an empty username lists the teammate, member/save adds them", async () => {
  const page = await suite.openAs(owner, '/item/index');
  const listed = await showdocRequest(page, '/api/user/allUser', { username: '' });
  expect(listed.error_code).toBe(0);
  const rows = listed.data as { username: string; name: string | null; value: string }[];
  // The dialog's options: label from username/name, value = username.
  const options = rows.map((u) => ({ label: u.username, value: u.value }));
  expect(options).toContainEqual({ label: teammate.username, value: teammate.username });

  const saved = await showdocRequest(page, '/api/member/save', {
    item_id: String(itemId),
    username: teammate.username,
    cat_ids: '',
    member_group_id: '1',
  });
  expect(saved.error_code).toBe(0);
  expect(await ItemMember.countDocuments({ item_id: itemId, uid: teammate.uid })).toBe(1);
  // Still signed in: the item list's own calls keep working.
  expect((await showdocRequest(page, '/api/item/myList', {})).error_code).toBe(0);
});

test("ShowDoc's back office first calls, sent without a token, succeed; its admin data still needs one", async () => {
  const page = await suite.openAs(admin, '/item/index');
  const update = await showdocRequest(page, '/api/adminUpdate/checkUpdate', {}, 'get');
  expect(update.error_code).toBe(0);
  const version = await showdocRequest(page, '/api/common/version', {}, 'get');
  expect(update.data).toMatchObject({ version: (version.data as { version: string }).version });
  // With the token (its POSTs), the admin's own screens answer; without it they do not.
  expect((await showdocRequest(page, '/api/adminUser/getList', {})).error_code).toBe(0);
  expect((await showdocRequest(page, '/api/adminSetting/loadConfig', {}, 'get')).error_code).toBe(
    10102,
  );
});

test('/item/add is the create screen; closing it goes back to the item list', async () => {
  const page = await suite.openAs(owner, '/item/add');
  const dialog = page.locator('.ant-modal', { hasText: 'New item' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.waitForURL(`${suite.server.url}/item/index`);
  await page.locator('[data-item-name="Shared docs"]').waitFor();
});

test("the notify dialog links to the item's member settings and to the teams, in a new tab", async () => {
  const made = await makePage(owner, itemId, { title: 'Notify me' });
  const page = await openEditor(suite, owner, itemId, made.page_id);
  await page.locator('[data-testid="editor-tool-notify"]').click();
  const links = page.locator('[data-testid="notify-people-links"]');
  await links.waitFor();
  const members = links.locator('[data-testid="notify-item-members"]');
  const teams = links.locator('[data-testid="notify-teams"]');
  expect(await members.getAttribute('href')).toBe(`/item/setting/${itemId}?tab=members`);
  expect(await members.getAttribute('target')).toBe('_blank');
  expect(await teams.getAttribute('href')).toBe('/team/index');
  expect(await teams.getAttribute('target')).toBe('_blank');
  // The member settings open in a new tab, on the members tab; the editor stays.
  const [tab] = await Promise.all([page.context().waitForEvent('page'), members.click()]);
  await tab.waitForURL(`${suite.server.url}/item/setting/${itemId}?tab=members`);
  await tab.getByRole('tab', { name: 'Members', selected: true }).waitFor();
  await tab.close();
  expect(page.url()).toContain(`/page/edit/${itemId}/${made.page_id}`);
});

test("a type-3 item's reader shows its owner no edit icon, no editor bar and no manager menu", async () => {
  // Written while regular, then turned into a RunApi project (as a ShowDoc site moved over).
  const { item_id: runApi } = await makeItem(owner, { item_name: 'RunApi docs' });
  const made = await makePage(owner, runApi, { title: 'GET /users', content: '# GET /users' });
  await Item.updateOne({ item_id: runApi }, { $set: { item_type: 3 } });
  forgetCachedReads();
  const page = await suite.openAs(owner, `/${runApi}/${made.page_id}`);
  const actions = page.getByTestId('header-actions');
  await page.getByRole('heading', { name: 'GET /users' }).first().waitFor();
  await actions.getByTestId('share').waitFor();
  expect(await actions.getByTestId('edit-page').count()).toBe(0);
  expect(await page.getByTestId('manage-menu').count()).toBe(0);
  expect(await page.getByTestId('editor-bar').count()).toBe(0);
});
