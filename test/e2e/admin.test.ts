/**
 * The back office and the item setting screen in a real browser against a real Quire: a
 * non-admin is sent away from /admin/index; an admin adds and deletes a user, transfers a
 * project, closes registration (the register page then refuses) and makes a chosen project the
 * home page (`/` lands there); an owner gives an item a personal domain that `/<domain>` opens.
 */
import { expect, test } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { Item } from '../../models/items/schemas';
import { User } from '../../models/accounts/schemas';
import { makeItem } from '../helpers/factories';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, loginViaUi, openPage, screenshot, type TestPage } from './helpers';

let admin: TestUser;
let owner: TestUser;

const suite = browserSuite({
  setup: async () => {
    admin = await makeUser({ admin: true, password: 'Admin-pass-1' });
    owner = await makeUser({ password: 'Owner-pass-1' });
  },
});

/** A suffix that keeps names unique when a flaky test is retried in the same server. */
const unique = () => randomBytes(3).toString('hex');

async function open(): Promise<TestPage> {
  const page = await openPage(suite.browser);
  suite.opened.push(page);
  return page;
}

async function adminPage(): Promise<TestPage> {
  const tp = await open();
  await loginViaUi(tp.page, suite.server.url, admin.username, admin.password);
  await tp.page.goto(`${suite.server.url}/admin/index`);
  await tp.page.getByRole('menuitem', { name: 'Users' }).waitFor();
  return tp;
}

test('a non-admin opening /admin/index is sent back to the item list', async () => {
  const { page } = await open();
  await loginViaUi(page, suite.server.url, owner.username, owner.password);
  await page.goto(`${suite.server.url}/admin/index`);
  await page.waitForURL(`${suite.server.url}/item/index`);
  expect(await page.getByRole('menuitem', { name: 'Users' }).count()).toBe(0);
});

test('the admin menu follows the spec order; an admin adds a user, then deletes them', async () => {
  const { page } = await adminPage();
  const menu = await page.getByRole('menu').getByRole('menuitem').allInnerTexts();
  expect(menu.map((m) => m.trim())).toEqual([
    'Users',
    'Projects',
    'Attachments',
    'External login',
    'Web settings',
    'Back to my items',
  ]);

  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  const username = `e2e_added_${unique()}`;
  await dialog.getByLabel('Username', { exact: true }).fill(username);
  await dialog.getByLabel('Name', { exact: true }).fill('Added By Admin');
  await dialog.getByLabel('Password', { exact: true }).fill('Added-pass-1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('searchbox', { name: 'Search by username' }).fill(username);
  await page.getByRole('searchbox', { name: 'Search by username' }).press('Enter');
  const row = page.getByRole('row', { name: new RegExp(username) });
  await row.waitFor();
  await screenshot(page, 'admin-01-users');
  expect(await User.findOne({ username }).lean()).toMatchObject({
    name: 'Added By Admin',
    groupid: 2,
  });

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('tooltip').getByRole('button', { name: 'Confirm' });
  await confirm.waitFor();
  await confirm.click();
  await row.waitFor({ state: 'detached' });
  expect(await User.exists({ username })).toBeNull();
});

test('an admin transfers a project to another user by name', async () => {
  const name = `Transfer Me ${unique()}`;
  const item = await makeItem(owner, { item_name: name });
  const target = await makeUser();
  const { page } = await adminPage();
  await page.getByRole('menuitem', { name: 'Projects' }).click();
  await page.getByRole('textbox', { name: 'Project name' }).fill(name);
  await page.getByRole('button', { name: 'Filter' }).click();
  // Wait for the filtered list: exactly this project's row (plus the header row).
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.waitFor();
  await page.waitForFunction(
    () => document.querySelectorAll('tbody tr.ant-table-row').length === 1,
  );
  await row.getByRole('button', { name: 'Transfer', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Transfer ${name}` });
  await dialog.getByLabel("New owner's username").fill(target.username);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('row', { name: new RegExp(`${name}.*${target.username}`) }).waitFor();
  expect((await Item.findOne({ item_id: item.item_id }).lean())!.uid).toBe(target.uid);
});

test('an admin closes registration and makes a chosen project the home page', async () => {
  const homeName = `Chosen Home ${unique()}`;
  const home = await makeItem(owner, { item_name: homeName });
  const { page } = await adminPage();
  await page.getByRole('menuitem', { name: 'Web settings' }).click();
  const registration = page.getByRole('switch', { name: 'Open registration' });
  await registration.waitFor();
  // A retried attempt finds registration already closed: only switch it when it is open.
  if ((await registration.getAttribute('aria-checked')) === 'true') await registration.click();
  await page.getByRole('switch', { name: 'Open registration', checked: false }).waitFor();
  await page.getByRole('radio', { name: 'Go to a chosen project' }).check();
  const chooser = page.getByRole('combobox', { name: 'Project shown as the home page' });
  await chooser.click();
  await chooser.fill(homeName);
  // Ant Design lists each option twice (a hidden accessible copy): wait for the visible one to
  // be the active option, pick it with Enter (a click during the opening animation can be lost),
  // and wait until the select shows it.
  await page
    .locator('.ant-select-item-option-active')
    .getByText(homeName, { exact: true })
    .waitFor();
  await chooser.press('Enter');
  await page.locator('.ant-select', { hasText: homeName }).waitFor();
  await screenshot(page, 'admin-02-settings');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved', { exact: true }).waitFor();

  const visitor = (await open()).page;
  await visitor.goto(`${suite.server.url}/user/register`);
  await visitor.getByText('Registration is closed on this site').waitFor();
  await visitor.goto(`${suite.server.url}/`);
  await visitor.waitForURL(`${suite.server.url}/${home.item_id}`);
  await visitor.getByText(homeName).first().waitFor();
});

test('an owner sets a personal domain on the item setting screen and /<domain> opens the item', async () => {
  const itemName = `Domain Item ${unique()}`;
  const domain = `e2eDomain${unique()}`;
  const item = await makeItem(owner, { item_name: itemName });
  const { page } = await open();
  await loginViaUi(page, suite.server.url, owner.username, owner.password);
  await page.goto(`${suite.server.url}/item/setting/${item.item_id}`);
  for (const tab of ['Base info', 'Members', 'Open API', 'Recycle bin'])
    await page.getByRole('tab', { name: tab }).waitFor();
  const field = page.getByLabel('Custom ID (optional)');
  await field.fill('bad domain!');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Use letters and digits only').waitFor();
  await field.fill(domain);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved').waitFor();
  await screenshot(page, 'admin-03-item-setting');
  expect((await Item.findOne({ item_id: item.item_id }).lean())!.item_domain).toBe(domain);

  await page.goto(`${suite.server.url}/${domain}`);
  await page.getByText(itemName).first().waitFor();
  expect(page.url()).toBe(`${suite.server.url}/${domain}`);
});

test('a generic-access secret-key link logs the browser in through the bridge (no token in the URL)', async () => {
  const key = (
    await suite.server.api
      .withToken(admin.user_token)
      .ok<{ login_secret_key: string }>('adminSetting/getLoginSecretKey')
  ).login_secret_key;
  const username = `linked_${unique()}`;
  const time = Math.floor(Date.now() / 1000);
  const token = createHash('md5').update(`${username}${key}${time}`).digest('hex');
  const tp = await open();
  const seen: string[] = [];
  tp.page.on('framenavigated', (frame) => {
    if (frame === tp.page.mainFrame()) seen.push(frame.url());
  });
  await tp.page.goto(
    `${suite.server.url}/api/ExtLogin/bySecretKey?username=${username}&time=${time}&token=${token}&redirect=/team/index`,
  );
  await tp.page.waitForURL(`${suite.server.url}/team/index`);
  const login = await tp.page.evaluate(() =>
    JSON.parse(localStorage.getItem('userinfo') ?? 'null'),
  );
  expect(login).toMatchObject({ username, groupid: '2' });
  for (const url of seen) expect(url).not.toContain(login.user_token);
});
