/**
 * The Content Security Policy (issue #16, api/securityHeaders.ts) lets the app work: the reader
 * renders highlighted code, KaTeX math and a mermaid diagram with no CSP violation reported —
 * neither a `securitypolicyviolation` event nor a console error (browserSuite fails on those).
 */
import { expect, test } from '@jest/globals';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';
import { browserSuite, openPage } from './helpers';
import { renderingDone, RENDERING, waitForPage } from './readerFixture';

let itemId = 0;
let pageId = 0;

const suite = browserSuite({
  setup: async () => {
    const owner = await makeUser();
    itemId = (await makeItem(owner, { item_name: 'Policies' })).item_id;
    pageId = (await makePage(owner, itemId, { title: 'Rendering', content: RENDERING })).page_id;
  },
});

test('the reader shows code, math and a mermaid diagram under the CSP without a violation', async () => {
  const tp = await openPage(suite.browser);
  suite.opened.push(tp);
  const { page } = tp;
  // Listen before any script of the app runs, so no early violation is missed.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });

  const response = await page.goto(`${suite.server.url}/${itemId}/${pageId}`);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await waitForPage(page, 'Rendering');
  await renderingDone(page);

  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: string[] }).cspViolations,
  );
  expect(violations).toEqual([]);
});
