/**
 * Browser tests run the web build with Ant Design's animations off (web/motion.ts, set by
 * openPage in test/e2e/helpers.ts): a menu or dialog is in its final place the moment it opens,
 * and no enter/leave animation (nor the click ripple) ever runs. A page opened with motion on — what
 * every person's browser gets — still animates the same menu and dialog.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { makeItem } from '../helpers/factories';
import { makeUser } from '../helpers/users';
import { browserSuite, openPage } from './helpers';

const suite = browserSuite();

/**
 * Every animating class (`…-enter-active`, `…-appear-active`, `…-leave-active`, the click ripple)
 * any element got after this call. (A popup is measured for one frame in a `…-prepare` class
 * whether or not it animates: that is not motion.)
 */
async function recordMotionClasses(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { motionSeen: Set<string> }).motionSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        const nodes =
          record.type === 'attributes'
            ? [target]
            : [...record.addedNodes].filter((node): node is Element => node instanceof Element);
        for (const node of nodes)
          for (const element of [node, ...node.querySelectorAll('*')])
            for (const name of element.classList)
              if (/-(enter|appear|leave)-active$|^ant-wave$/.test(name)) seen.add(name);
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['class'],
    });
  });
  return () =>
    page.evaluate(() => [...(window as unknown as { motionSeen: Set<string> }).motionSeen]);
}

/** Opens the item's "…" menu and then the New item dialog; returns the motion classes seen. */
async function openMenuAndDialog(motion: boolean): Promise<string[]> {
  const user = await makeUser();
  await makeItem(user, { item_name: 'Animated' });
  const tp = await openPage(suite.browser, { motion });
  suite.opened.push(tp);
  const { page } = tp;
  await page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=/item/index`,
  );
  await page.waitForURL(`${suite.server.url}/item/index`);
  const seen = await recordMotionClasses(page);

  await page.getByRole('button', { name: 'Actions for Animated', exact: true }).click();
  await page.getByRole('menuitem', { name: /(^|\s)Star$/ }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: /(^|\s)Star$/ }).waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: 'New item' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  await dialog.waitFor();
  // Whatever the dialog's state, it is fully opaque once visible when nothing animates.
  const opacity = await dialog.evaluate((element) => {
    const box = element.closest('.ant-modal') ?? element;
    return getComputedStyle(box).opacity;
  });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return [opacity, ...(await seen())];
}

test('with motion off, menus and dialogs open and close without any animation', async () => {
  const [opacity, ...classes] = await openMenuAndDialog(false);
  expect(opacity).toBe('1');
  expect(classes).toEqual([]);
});

test('with motion on (a person’s browser), the same menu and dialog animate', async () => {
  const [, ...classes] = await openMenuAndDialog(true);
  expect(classes).toEqual(
    expect.arrayContaining(['ant-slide-up-appear-active', 'ant-zoom-appear-active', 'ant-wave']),
  );
});
