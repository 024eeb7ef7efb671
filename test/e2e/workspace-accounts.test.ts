/**
 * The workspace's account flows in a real browser against a real Quire: registration and login
 * with the image captcha (answered from the database), the stored login surviving a reload,
 * logout, the redirect rule ('illegal redirect'), the 10102 rule, the token-login bridge, the
 * landing page's home-page setting and the remembered language. No console errors anywhere.
 */
import { expect, test } from '@jest/globals';

import { deleteSetting, setSetting } from '../../models/settings/settings';

import { makeUser } from '../helpers/users';
import {
  fillCaptcha,
  loginViaUi,
  openPage,
  screenshot,
  type TestPage,
  browserSuite,
} from './helpers';

async function open(options?: Parameters<typeof openPage>[1]): Promise<TestPage> {
  const page = await openPage(suite.browser, options);
  suite.opened.push(page);
  return page;
}

const suite = browserSuite();

const storedLogin = (tp: TestPage) =>
  tp.page.evaluate(() => JSON.parse(localStorage.getItem('userinfo') ?? 'null'));

test('a visitor registers with the captcha, lands on the item list, and the login survives a reload', async () => {
  const tp = await open();
  const { page } = tp;
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('link', { name: 'Login / Register' }).waitFor();
  await screenshot(page, '01-landing');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL(`${suite.server.url}/user/register`);

  await page.getByRole('textbox', { name: 'Username' }).fill('alice_e2e');
  await page.getByLabel('Password', { exact: true }).fill('Secret-pass-1');
  await page.getByLabel('Password again').fill('Secret-pass-1');
  await fillCaptcha(page);
  await screenshot(page, '02-register');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${suite.server.url}/item/index`);
  await page.getByText('No items here yet').waitFor();

  const login = await storedLogin(tp);
  expect(login).toMatchObject({ username: 'alice_e2e', groupid: '2' });
  expect(login.user_token).toMatch(/^[0-9a-f]{64,}$/);

  await page.reload();
  await page.getByRole('button', { name: 'Notices' }).waitFor();
  expect(page.url()).toBe(`${suite.server.url}/item/index`);
});

test('logout clears the stored login and goes to /; a wrong captcha is alerted and replaced; login then follows the redirect', async () => {
  const user = await makeUser({ password: 'Pass-word-2' });
  const tp = await open();
  const { page } = tp;
  await loginViaUi(page, suite.server.url, user.username, user.password);

  await page.getByRole('button', { name: 'User centre' }).click();
  await page
    .getByRole('dialog', { name: 'My account' })
    .getByRole('button', { name: 'Log out' })
    .click();
  await page.waitForURL(`${suite.server.url}/`);
  expect(await storedLogin(tp)).toBeNull();

  await page.goto(`${suite.server.url}/user/login?redirect=/team/index`);
  await page.getByRole('textbox', { name: 'Username' }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  const firstSrc = await page.getByRole('img', { name: 'Captcha picture' }).getAttribute('src');
  // Letters the captcha alphabet never uses: always wrong.
  await page.getByRole('textbox', { name: 'Captcha' }).fill('O0I1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('dialog').getByText('Captcha incorrect').waitFor();
  await screenshot(page, '03-login-wrong-captcha');
  await page.getByRole('button', { name: 'OK' }).click();
  // A new captcha (new id), the old answer cleared.
  await page.waitForFunction(
    (src) => document.querySelector('img[alt="Captcha picture"]')?.getAttribute('src') !== src,
    firstSrc,
  );
  expect(await page.getByRole('textbox', { name: 'Captcha' }).inputValue()).toBe('');

  await fillCaptcha(page);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${suite.server.url}/team/index`);
  await page.getByRole('heading', { name: 'Teams' }).waitFor();
});

test('a redirect outside the rule is refused with "illegal redirect" and no login happens', async () => {
  const user = await makeUser({ password: 'Pass-word-3' });
  const tp = await open();
  const { page } = tp;
  for (const bad of ['//evil.example/x', '/item/../admin', 'https:/x']) {
    await page.goto(`${suite.server.url}/user/login?redirect=${encodeURIComponent(bad)}`);
    await page.getByRole('textbox', { name: 'Username' }).fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await fillCaptcha(page);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('dialog').getByText('illegal redirect').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    expect(new URL(page.url()).pathname).toBe('/user/login');
    expect(await storedLogin(tp)).toBeNull();
  }
});

test('an invalid stored login (10102) sends the user to login with the current path, and back after login', async () => {
  const user = await makeUser({ password: 'Pass-word-4' });
  // Known race, not of this flow's making: on the live socket's refusal (connect_error)
  // socket.io-client closes the connection itself; when its connect POST is still unanswered the
  // close waits for it, the long-poll loop sends one more GET meanwhile, and the close POST can
  // reach the server first — that GET is then answered 400 "Session ID unknown" (seen in CI, 2 of
  // ~8 runs). Only that request of the live socket is let through here.
  const tp = await open({
    ignore: [/status of 400 .*\/socket\.io\/\?EIO=4&transport=polling&t=[\w-]+&sid=[\w-]+\)$/],
  });
  const { page } = tp;
  await page.goto(`${suite.server.url}/`);
  await page.evaluate(() =>
    localStorage.setItem(
      'userinfo',
      JSON.stringify({
        uid: '9',
        username: 'ghost',
        name: '',
        groupid: '2',
        user_token: 'f'.repeat(128),
      }),
    ),
  );
  await page.goto(`${suite.server.url}/team/index`);
  await page.waitForURL(`${suite.server.url}/user/login?redirect=%2Fteam%2Findex`);
  expect(await storedLogin(tp)).toBeNull();

  await page.getByRole('textbox', { name: 'Username' }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await fillCaptcha(page);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${suite.server.url}/team/index`);
});

test('the token-login bridge stores the login and goes to redirect_uri; an illegal redirect_uri is refused', async () => {
  const user = await makeUser();
  const tp = await open();
  const { page } = tp;
  await page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=${encodeURIComponent('/attachment/index')}`,
  );
  await page.waitForURL(`${suite.server.url}/attachment/index`);
  await page.getByRole('heading', { name: 'My attachments' }).waitFor();
  expect(await storedLogin(tp)).toMatchObject({
    username: user.username,
    user_token: user.user_token,
  });
  expect(await page.evaluate(() => document.cookie)).toContain('cookie_token=');

  await page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=${encodeURIComponent('//evil.example')}`,
  );
  await page.getByRole('dialog').getByText('illegal redirect').waitFor();
  expect(new URL(page.url()).pathname).toBe('/user/loginByUserToken');
});

test('the landing page follows the home-page setting and offers "My items" to a logged-in user', async () => {
  const user = await makeUser();
  const tp = await open();
  const { page } = tp;
  await setSetting('home_page', '2');
  try {
    await page.goto(`${suite.server.url}/`);
    await page.waitForURL(`${suite.server.url}/user/login`);
  } finally {
    await deleteSetting('home_page');
  }
  await page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=/item/index`,
  );
  await page.waitForURL(`${suite.server.url}/item/index`);
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('link', { name: 'My items' }).first().click();
  await page.waitForURL(`${suite.server.url}/item/index`);
});

test('the chosen language is stored under help_lang and kept after a reload', async () => {
  const tp = await open();
  const { page } = tp;
  await page.goto(`${suite.server.url}/user/login`);
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByTitle('简体中文').click();
  await page.getByRole('heading', { name: '登录' }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('help_lang'))).toBe('zh_cn');
  await page.reload();
  await page.getByRole('heading', { name: '登录' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-cn');
  await screenshot(page, '04-login-zh');
});

test('every workspace screen opens from its own address; the back office is for admins only', async () => {
  const admin = await makeUser({ admin: true });
  const tp = await open();
  const { page } = tp;
  await page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${admin.user_token}&redirect_uri=/user/setting`,
  );
  await page.waitForURL(`${suite.server.url}/user/setting`);
  const screens: [string, string, string][] = [
    ['/user/setting', 'User centre', '05-user-centre'],
    ['/message/index?dtab=announcementList', 'Notices', '06-notices-page'],
    ['/item/group/index', 'Manage groups', '07-groups-page'],
    ['/attachment/index', 'My attachments', '08-attachments-page'],
    ['/team/index', 'Teams', '09-teams-page'],
    ['/admin/index', 'Back office', '09b-admin-entry'],
  ];
  for (const [path, heading, shot] of screens) {
    await page.goto(`${suite.server.url}${path}`);
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    await screenshot(page, shot);
  }
  await page.goto(`${suite.server.url}/message/index?dtab=announcementList`);
  await page.getByRole('tab', { name: 'System announcements', selected: true }).waitFor();
  await page.getByRole('button', { name: 'Back office' }).waitFor();
  await page.goto(`${suite.server.url}/prices`);
  await page.getByRole('heading', { name: 'Plans' }).waitFor();

  // An ordinary user has no back-office icon, and its address sends them back to their items.
  const user = await makeUser();
  const other = await open();
  await other.page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=/admin/index`,
  );
  await other.page.waitForURL(`${suite.server.url}/item/index`);
  await other.page.getByRole('button', { name: 'Notices' }).waitFor();
  expect(await other.page.getByRole('button', { name: 'Back office' }).count()).toBe(0);
});
