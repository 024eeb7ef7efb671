/**
 * Collaboration in real browsers, two users at once: item members (added, seen by the other
 * user, removed), teams (members, bound items, authorities with "all read-only", a non-manager
 * who can only leave), the attachment manager (paging, type filter, usage, delete), and a notice
 * arriving live in the second user's browser — the 'New' badge appears without a reload. No
 * console errors anywhere.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { subscribeToPage } from '../../models/notices/subscriptions';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { makeItem } from '../helpers/factories';

import { makeUser, type TestUser } from '../helpers/users';
import { itemAction, itemNames, openPage, screenshot, browserSuite } from './helpers';
import { eventually } from './readerFixture';

const suite = browserSuite();

async function loggedIn(user: TestUser, path = '/item/index'): Promise<Page> {
  const tp = await openPage(suite.browser);
  suite.opened.push(tp);
  await tp.page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=${path}`,
  );
  await tp.page.waitForURL(`${suite.server.url}${path}`);
  return tp.page;
}

/** Waits until the header's live dot says the socket is connected. */
async function live(page: Page): Promise<void> {
  await page.locator('[role="status"][data-state="connected"]').waitFor();
}

test('an item manager adds a second user as read-only member; the item appears in their list live; removing them takes it away', async () => {
  const owner = await makeUser({ name: 'Olivia' });
  const bob = await makeUser({ name: 'Bob Builder' });
  const item = await makeItem(owner, { item_name: 'Shared API' });
  const bobPage = await loggedIn(bob);
  await live(bobPage);
  await bobPage.getByText('No items here yet').waitFor();

  const page = await loggedIn(owner);
  await itemAction(page, 'Shared API', 'Members');
  const dialog = page.getByRole('dialog', { name: 'Members of "Shared API"' });
  await dialog.getByLabel('Add users').click();
  await page.keyboard.type(bob.username.slice(0, 6));
  await page.getByTitle(`${bob.username} (Bob Builder)`).click();
  await dialog.getByLabel('Authority', { exact: true }).click();
  await page.getByTitle('Read-only').click();
  await dialog.getByRole('button', { name: /(^|\s)Add$/ }).click();
  const row = dialog.getByRole('row', { name: new RegExp(bob.username) });
  await row.getByText('Read-only').waitFor();
  await row.getByText('All catalogs').waitFor();
  await screenshot(page, '20-member-manager');
  expect(await ItemMember.findOne({ item_id: item.item_id, uid: bob.uid }).lean()).toMatchObject({
    member_group_id: 0,
  });

  // Bob's list refreshes on the server's access push: no reload.
  await bobPage.locator('[data-item-name="Shared API"]').waitFor();
  // Read-only members get the everyday actions only.
  await bobPage.getByRole('button', { name: 'Actions for Shared API', exact: true }).click();
  await bobPage.getByRole('menuitem', { name: /Share$/ }).waitFor();
  expect(await bobPage.getByRole('menuitem', { name: /Delete$/ }).count()).toBe(0);
  await bobPage.keyboard.press('Escape');

  await row.getByRole('button', { name: `Remove ${bob.username}` }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await row.waitFor({ state: 'detached' });
  await bobPage.locator('[data-item-name="Shared API"]').waitFor({ state: 'detached' });
});

test('teams: a manager adds a member and an item, sets authorities and "all read-only"; the member can only leave', async () => {
  const owner = await makeUser();
  const carol = await makeUser({ name: 'Carol' });
  const item = await makeItem(owner, { item_name: 'Team handbook' });
  const page = await loggedIn(owner, '/team/index');

  await page.getByRole('button', { name: 'New team' }).click();
  await page.getByRole('dialog', { name: 'New team' }).getByLabel('Team name').fill('Core');
  await page
    .getByRole('dialog', { name: 'New team' })
    .getByRole('button', { name: 'Save' })
    .click();
  await page.getByRole('link', { name: 'Members of Core' }).waitFor();

  await page.getByRole('link', { name: 'Members of Core' }).click();
  await page.getByRole('heading', { name: 'Members of team "Core"' }).waitFor();
  await page.getByLabel('Add members').click();
  await page.keyboard.type(carol.username.slice(0, 6));
  await page.getByTitle(`${carol.username} (Carol)`).click();
  await page.getByRole('heading', { name: 'Members of team "Core"' }).click(); // close the picker
  await page.getByRole('button', { name: /(^|\s)Add$/ }).click();
  await page.getByRole('cell', { name: carol.username, exact: true }).waitFor();
  await screenshot(page, '21-team-members');

  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('link', { name: 'Items of Core' }).click();
  await page.getByRole('heading', { name: 'Items of team "Core"' }).waitFor();
  await page.getByLabel('Choose items you manage').click();
  await page.getByTitle('Team handbook').click();
  await page.getByRole('heading', { name: 'Items of team "Core"' }).click();
  await page.getByRole('button', { name: 'Add items' }).click();
  await page.getByRole('link', { name: 'Team handbook' }).waitFor();

  await page.getByRole('button', { name: 'Member authority' }).click();
  const authority = page.getByRole('dialog', { name: 'Member authorities on "Team handbook"' });
  await authority.getByRole('cell', { name: new RegExp(carol.username) }).waitFor();
  await authority.getByLabel(`Authority of ${carol.username}`).click();
  await page.getByTitle('Item admin').click();
  await page.getByText('Authority saved').first().waitFor();
  await eventually(
    async () =>
      (await TeamItemMember.findOne({ item_id: item.item_id, member_uid: carol.uid }).lean())
        ?.member_group_id,
    2,
    10_000,
  );
  await screenshot(page, '22-team-item-authority');
  await authority.getByRole('button', { name: 'All read-only' }).click();
  await page.getByText('Every member is now read-only').waitFor();
  await eventually(
    async () =>
      (await TeamItemMember.findOne({ item_id: item.item_id, member_uid: carol.uid }).lean())
        ?.member_group_id,
    0,
    10_000,
  );
  await authority.getByRole('button', { name: 'Close' }).click();

  // Carol sees the team and its item; she does not manage it: "Leave team" is all she gets.
  const carolPage = await loggedIn(carol, '/team/index');
  const teamRow = carolPage.getByRole('row', { name: /Core/ });
  await teamRow.waitFor();
  expect(await teamRow.getByRole('button', { name: 'Manage team Core' }).count()).toBe(0);
  await screenshot(carolPage, '23-team-list-member');
  await carolPage.goto(`${suite.server.url}/item/index`);
  await carolPage.locator('[data-item-name="Team handbook"]').waitFor();
  expect(await itemNames(carolPage)).toEqual(['Team handbook']);
  await carolPage.goto(`${suite.server.url}/team/index`);
  await carolPage
    .getByRole('row', { name: /Core/ })
    .getByRole('button', { name: 'Leave team' })
    .click();
  await carolPage.getByRole('tooltip').getByRole('button', { name: 'Leave team' }).click();
  await carolPage.getByText('You are in no team yet').waitFor();
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function upload(user: TestUser, name: string, body: Buffer, type: string): Promise<void> {
  const form = new FormData();
  form.append('user_token', user.user_token);
  form.append('file', new Blob([new Uint8Array(body)], { type }), name);
  const response = await fetch(`${suite.server.url}/api/page/upload`, {
    method: 'POST',
    body: form,
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0' },
  });
  const answer = (await response.json()) as { success?: number; error_message?: string };
  if (answer.success !== 1) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
}

test('the attachment manager pages by 5, filters images, shows usage, and deletes with a confirmation', async () => {
  const user = await makeUser();
  for (let i = 1; i <= 6; i++)
    await upload(user, `notes-${i}.txt`, Buffer.from(`file ${i} `.repeat(2000)), 'text/plain');
  await upload(user, 'logo.png', PNG, 'image/png');
  const page = await loggedIn(user);

  await page.getByRole('button', { name: 'Attachments' }).click();
  const dialog = page.getByRole('dialog', { name: 'My attachments' });
  await dialog.getByText('Total 7').waitFor();
  expect(await dialog.locator('tbody tr.ant-table-row').count()).toBe(5);
  await dialog.getByText('Space used').waitFor();
  await screenshot(page, '24-attachments');

  await dialog.getByRole('listitem', { name: '2' }).click();
  await dialog.getByRole('cell', { name: 'notes-1.txt', exact: true }).waitFor();
  expect(await dialog.locator('tbody tr.ant-table-row').count()).toBe(2);

  await dialog.getByLabel('File type').click();
  await page.getByTitle('Images').click();
  await dialog.getByRole('cell', { name: 'logo.png', exact: true }).waitFor();
  await dialog.getByText('Total 1').waitFor();

  await dialog.getByRole('button', { name: 'Delete logo.png' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await dialog.getByText('No attachments').waitFor();
  await dialog.getByLabel('File type').click();
  await page.getByTitle('All files').click();
  await dialog.getByText('Total 6').waitFor();
});

test('a reminder reaches the second user live: the New badge and an in-page notice appear without a reload, and reading clears them', async () => {
  const author = await makeUser();
  const reader = await makeUser();
  const item = await makeItem(author, { item_name: 'Payments' });
  const { page_id: pageId } = await suite.server.api
    .withToken(author.user_token)
    .ok<{ page_id: number | string }>('page/save', {
      page_id: 0,
      item_id: item.item_id,
      page_title: 'Refund rules',
      page_content: 'v1',
    });
  const { addMember } = await import('../helpers/factories');
  await addMember(item.item_id, reader, 0);
  await subscribeToPage(reader.uid, Number(pageId));

  const readerPage = await loggedIn(reader);
  await live(readerPage);
  const bell = readerPage.getByTestId('notices-icon');
  expect(await bell.getAttribute('data-unread')).toBe('no');

  // The author saves with "notify": the reader's browser is told over the socket.
  const authorPage = await loggedIn(author);
  await live(authorPage);
  await suite.server.api.withToken(author.user_token).ok('page/save', {
    page_id: pageId,
    item_id: item.item_id,
    page_title: 'Refund rules',
    page_content: 'v2',
    is_notify: 1,
    notify_content: 'Refunds now take 3 days',
  });
  await readerPage.locator('[data-testid="notices-icon"][data-unread="yes"]').waitFor();
  await bell.getByText('New').waitFor();
  await readerPage
    .getByText(`${author.username} updated the page "Refund rules". Click to view.`)
    .waitFor();
  await screenshot(readerPage, '25-live-notice');
  expect(await authorPage.getByTestId('notices-icon').getAttribute('data-unread')).toBe('no');

  await readerPage.getByRole('button', { name: 'Notices' }).click();
  const centre = readerPage.getByRole('dialog', { name: 'Notices' });
  await centre.getByRole('link', { name: 'Refund rules' }).waitFor();
  await centre.getByText('Update note: Refunds now take 3 days').waitFor();
  await screenshot(readerPage, '26-notice-centre');
  // Shown → marked read after 2 s → the badge goes.
  await readerPage
    .locator('[data-testid="notices-icon"][data-unread="no"]')
    .waitFor({ timeout: 15_000 });
});
