/**
 * Makes the README's screenshots (docs/images/*.png): a fresh in-process Quire with a small API
 * item, a reader's view of one page, and the editor with a second person in it. Run with
 * `npx tsx scripts/docs-screenshots.ts` (needs /usr/bin/chromium); it writes nothing else.
 */
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BROWSER_UA } from '../test/helpers/client';
import { makeCatalog, makePage } from '../test/helpers/pages';
import { makeItem } from '../test/helpers/factories';
import { startTestServer } from '../test/helpers/server';
import { makeUser, type TestUser } from '../test/helpers/users';
import { ensureWebBuilt } from '../server/webBuild';
import { ROOT } from '../server/paths';

const OUT = path.join(ROOT, 'docs', 'images');

const ORDERS_PAGE = `Create an order for the signed-in customer. The order starts as \`pending\` until it is paid.

**URL:** \`POST /v2/orders\`

| Parameter | Required | Type | Description |
| --- | --- | --- | --- |
| customer_id | yes | string | The customer who orders |
| items | yes | array | Product ids and quantities |
| coupon | no | string | A coupon code, applied before tax |

**Answer**

\`\`\`json
{
  "order_id": "ord_8412",
  "status": "pending",
  "total": 129.5,
  "currency": "EUR"
}
\`\`\`

> Orders that stay unpaid for 30 minutes are cancelled and their stock released.

## Errors

| Code | Meaning |
| --- | --- |
| 4001 | Unknown product |
| 4002 | Coupon expired |
`;

/** A browser tab signed in as `user` (the login stored where the web app keeps it). */
async function tabAs(browser: Browser, baseUrl: string, user: TestUser): Promise<Page> {
  const context = await browser.newContext({
    userAgent: BROWSER_UA,
    viewport: { width: 1280, height: 760 },
  });
  await context.addInitScript((login) => localStorage.setItem('userinfo', JSON.stringify(login)), {
    uid: String(user.uid),
    username: user.username,
    name: '',
    groupid: '2',
    user_token: user.user_token,
  });
  const page = await context.newPage();
  await page.goto(baseUrl);
  return page;
}

async function main(): Promise<void> {
  await ensureWebBuilt(ROOT, (text) => console.log(text));
  const server = await startTestServer();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const ada = await makeUser({ username: 'ada', name: 'Ada Lovelace' });
    const grace = await makeUser({ username: 'grace', name: 'Grace Hopper' });
    const { item_id } = await makeItem(ada, { item_name: 'Payments API' });
    const { addMember } = await import('../test/helpers/factories');
    await addMember(item_id, grace, 1);
    const start = await makeCatalog(ada, item_id, 'Getting started');
    const orders = await makeCatalog(ada, item_id, 'Orders');
    await makeCatalog(ada, item_id, 'Refunds');
    await makePage(ada, item_id, {
      title: 'Authentication',
      catId: start,
      content: '# Authentication\n\nSend your key in `Authorization`.',
    });
    await makePage(ada, item_id, {
      title: 'Errors and limits',
      catId: start,
      content: '# Errors\n',
    });
    const page = await makePage(ada, item_id, {
      title: 'Create an order',
      catId: orders,
      content: ORDERS_PAGE,
    });
    await makePage(ada, item_id, {
      title: 'List orders',
      catId: orders,
      content: '# List orders\n',
    });
    await makePage(ada, item_id, {
      title: 'Cancel an order',
      catId: orders,
      content: '# Cancel\n',
    });

    const reader = await tabAs(browser, server.url, ada);
    await reader.goto(`${server.url}/${item_id}/${page.page_id}`);
    await reader.getByText('Orders that stay unpaid').waitFor();
    await reader.waitForTimeout(500);
    await reader.screenshot({ path: path.join(OUT, 'reader.png') });

    const other = await tabAs(browser, server.url, grace);
    const editUrl = `${server.url}/page/edit/${item_id}/${page.page_id}`;
    await reader.goto(editUrl);
    await reader.locator('.cm-content').waitFor();
    await other.goto(editUrl);
    await other.locator('.cm-content').waitFor();
    await reader.waitForTimeout(1500);
    await reader.screenshot({ path: path.join(OUT, 'editor.png') });
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
