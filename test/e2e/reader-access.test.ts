/**
 * The reader's doors in Chromium: the private-item password flow (wrong password, wrong captcha,
 * success and back to the page), the share dialog and its QR code, single-page share links on
 * and off, the watermark, and a page full of stored XSS that must stay inert (a sentinel that any
 * executed payload would set). No test may leave an unexpected console error behind.
 */
import { describe, expect, test } from '@jest/globals';

import { setSetting } from '../../models/settings/settings';

import { captchaAnswer } from './helpers';
import {
  eventually,
  GUIDE_DOMAIN,
  loginAs,
  readerSuite,
  PRIVATE_PASSWORD,
  shot,
  waitForPage,
} from './readerFixture';

const suite = readerSuite();
const { open } = suite;

describe('a private item', () => {
  test('sends a visitor to the password screen; wrong password and wrong captcha are refused; the right one leads back to the page', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${suite.fx.secret.itemId}/${suite.fx.secret.hidden}`);
    await page.waitForURL(/\/item\/password\//);
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/item/password/${suite.fx.secret.itemId}`);
    expect(url.searchParams.get('redirect')).toBe(
      `/${suite.fx.secret.itemId}/${suite.fx.secret.hidden}`,
    );
    const password = page.getByLabel('Visit password');
    const captcha = page.getByRole('textbox', { name: 'Captcha' });
    const submit = page.getByRole('button', { name: 'Open the item' });
    const picture = page.getByRole('img', { name: 'Captcha picture' });
    /** After a refused try the form fetches a new captcha: wait for it before reading its text. */
    const freshCaptcha = async (spent: string | null) => {
      await eventually(async () => (await picture.getAttribute('src')) !== spent, true);
      return captchaAnswer(page);
    };

    // Wrong password, right captcha.
    await password.fill('not-it');
    await captcha.fill(await captchaAnswer(page));
    let spent = await picture.getAttribute('src');
    await submit.click();
    const warning = page.locator('.ant-modal-confirm');
    await warning.getByText('Access password incorrect').waitFor();
    await shot(page, 'reader-password-wrong');
    await warning.getByRole('button', { name: 'OK' }).click();
    await eventually(() => page.locator('.ant-modal-confirm').count(), 0);

    // Right password, wrong captcha (a fresh one was drawn after the first try).
    await freshCaptcha(spent);
    spent = await picture.getAttribute('src');
    await password.fill(PRIVATE_PASSWORD);
    await captcha.fill('zzzz');
    await submit.click();
    await warning.getByText('Captcha incorrect').waitFor();
    await warning.getByRole('button', { name: 'OK' }).click();
    await eventually(() => page.locator('.ant-modal-confirm').count(), 0);

    // Both right: back to the page asked for.
    await password.fill(PRIVATE_PASSWORD);
    await captcha.fill(await freshCaptcha(spent));
    await submit.click();
    await page.waitForURL(
      `${suite.server.url}/${suite.fx.secret.itemId}/${suite.fx.secret.hidden}`,
    );
    await waitForPage(page, 'Hidden page');
    // The password is remembered for the session: other pages of the item open directly.
    await page.goto(`${suite.server.url}/${suite.fx.secret.itemId}`);
    await waitForPage(page, 'Hidden page');
  });

  test('a visitor who gives the password at once reads the page asked for (the refused first requests are not reused)', async () => {
    const { page } = await open();
    const address = `${suite.server.url}/${suite.fx.secret.itemId}/${suite.fx.secret.hidden}`;
    await page.goto(address);
    await page.waitForURL(/\/item\/password\//);
    await page.getByLabel('Visit password').fill(PRIVATE_PASSWORD);
    await page.getByRole('textbox', { name: 'Captcha' }).fill(await captchaAnswer(page));
    await page.getByRole('button', { name: 'Open the item' }).click();
    await page.waitForURL(address);
    await waitForPage(page, 'Hidden page');
  });

  test('members read it without a password', async () => {
    const tp = await open();
    await loginAs(tp, suite.fx.owner);
    await tp.page.goto(`${suite.server.url}/${suite.fx.secret.itemId}`);
    await waitForPage(tp.page, 'Hidden page');
  });
});

describe('sharing', () => {
  test('the share dialog shows the item address (custom domain), copies name and link, and shows its QR code', async () => {
    const tp = await open();
    await tp.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: suite.server.url,
    });
    const { page } = tp;
    await page.goto(`${suite.server.url}/${suite.fx.guide.itemId}/${suite.fx.guide.alpha}`);
    await waitForPage(page, 'Alpha page');
    await page.getByTestId('share').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('share-item-url').inputValue()).resolves.toBe(
      `${suite.server.url}/${GUIDE_DOMAIN}`,
    );
    await dialog.getByTestId('share-copy').click();
    await page.locator('.ant-message').getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `Guide ${suite.server.url}/${GUIDE_DOMAIN}`,
    );
    const qr = dialog.getByTestId('share-qr');
    await eventually(
      () => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      true,
    );
    expect(await qr.getAttribute('src')).toBe(
      `/api/common/qrcode?size=3&url=${encodeURIComponent(`${suite.server.url}/${GUIDE_DOMAIN}`)}`,
    );
    // Readers get no single-page switch.
    await expect(dialog.getByTestId('share-single-switch').count()).resolves.toBe(0);
    await shot(page, 'reader-share-dialog');
  });

  test('an editor switches a single-page link on (anyone can read the page by it) and off again (after confirming)', async () => {
    const tp = await open();
    await loginAs(tp, suite.fx.editor);
    const { page } = tp;
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.beta}`);
    await waitForPage(page, 'Beta page');
    await page.getByTestId('share').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('share-single-switch').click();
    const link = dialog.getByTestId('share-single-url');
    await link.waitFor();
    const shareUrl = await link.inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${suite.server.url}/p/[0-9a-f]{32}$`));
    await shot(page, 'reader-share-single-on');

    const visitor = await open();
    await visitor.page.goto(shareUrl);
    await waitForPage(visitor.page, 'Beta page');
    await expect(visitor.page.getByTestId('markdown').textContent()).resolves.toContain('zebra');
    await expect(visitor.page.getByTestId('reader-sidebar').count()).resolves.toBe(0);
    await shot(visitor.page, 'reader-shared-page');

    await dialog.getByTestId('share-single-switch').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await eventually(() => dialog.getByTestId('share-single-url').count(), 0);

    await visitor.page.reload();
    await visitor.page.getByTestId('shared-error').waitFor();
  });
});

describe('the watermark', () => {
  test('covers the page for logged-in viewers when the site has it on; never for anonymous visitors', async () => {
    await setSetting('show_watermark', '1');
    try {
      const member = await open();
      await loginAs(member, suite.fx.viewer, 'Vera Viewer');
      await member.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
      await waitForPage(member.page, 'Welcome');
      const mark = member.page.getByTestId('watermark');
      const text = await mark.getAttribute('data-text');
      const today = await member.page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      expect(text).toBe(`${suite.fx.viewer.username} ${today} Vera Viewer`);
      await expect(mark.evaluate((e) => getComputedStyle(e).opacity)).resolves.toBe('0.05');
      await expect(mark.evaluate((e) => getComputedStyle(e).pointerEvents)).resolves.toBe('none');
      await shot(member.page, 'reader-watermark');

      const visitor = await open();
      await visitor.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
      await waitForPage(visitor.page, 'Welcome');
      await expect(visitor.page.getByTestId('watermark').count()).resolves.toBe(0);
    } finally {
      await setSetting('show_watermark', '0');
    }
  });

  test('is absent when the site has it off', async () => {
    const member = await open();
    await loginAs(member, suite.fx.viewer);
    await member.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(member.page, 'Welcome');
    await expect(member.page.getByTestId('watermark').count()).resolves.toBe(0);
  });
});

describe('stored XSS', () => {
  test('a page of script tags, event handlers, javascript: links and SVG payloads renders inert', async () => {
    // The broken image is one of the payloads: its 404 is expected, its onerror must not run.
    // The Content Security Policy refusing a payload's inline handler is the defence working.
    const tp = await open({
      ignore: [/status of 404/, /inline event handler violates the following Content Security/],
    });
    await loginAs(tp, suite.fx.owner);
    const { page } = tp;
    await page.addInitScript(() => {
      (window as unknown as { __xss?: string }).__xss = undefined;
    });
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.xss}`);
    await waitForPage(page, 'Hostile');
    const md = page.getByTestId('markdown');
    await md.getByText('The end.').waitFor();
    await md.locator('.md-mermaid[data-drawn="yes"], .md-mermaid[data-drawn="error"]').waitFor();
    // Click everything that could be a trap.
    await md.getByText('[javascript link](javascript:', { exact: false }).click();
    await md.getByText('html javascript link', { exact: true }).click();
    await md.getByText('svg link', { exact: true }).click();
    await md.getByText('toggle', { exact: true }).click();
    await md
      .locator('.md-mermaid svg')
      .first()
      .click()
      .catch(() => {});
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
    ).toBeUndefined();
    expect(page.url()).toBe(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.xss}`);
    await expect(
      md.locator('script, iframe, [onerror], [onload], [ontoggle]').count(),
    ).resolves.toBe(0);
    await expect(
      md
        .locator('a')
        .evaluateAll((links) =>
          links.map((a) => a.getAttribute('href') ?? '').filter((h) => /javascript:/i.test(h)),
        ),
    ).resolves.toEqual([]);
    await shot(page, 'reader-xss-inert');
  });
});
