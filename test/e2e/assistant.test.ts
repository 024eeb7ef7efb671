/**
 * "Ask the docs" in a real browser: the reader's Ask button opens the panel, a question is
 * answered by a local OpenAI-compatible stub that searches, reads a page and then streams its
 * answer slowly — the words appear while the answer is still running — and the citation of the
 * page it read opens that page in the reader.
 */
import { afterAll, expect, test } from '@jest/globals';
import { aiConfigOf, saveItemAiConfig } from '../../models/items';
import { setSettings } from '../../models/settings/settings';
import { type AgentStub, startAgentStub, toolResults } from '../helpers/agentStub';
import { actorOf, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';

let owner: TestUser;
let itemId: number;
let quokkas: number;
let kangaroos: number;
let stub: AgentStub;

const suite = browserSuite({
  env: { ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
  setup: async () => {
    owner = await makeUser({ name: 'Ada Asks' });
    itemId = (await makeItem(owner, { item_name: 'Zoo docs' })).item_id;
    quokkas = (
      await makePage(owner, itemId, {
        title: 'Where quokkas live',
        content: '# Quokkas\n\nThe habitat of the quokka is Rottnest Island.',
      })
    ).page_id;
    kangaroos = (await makePage(owner, itemId, { title: 'Kangaroos', content: 'Kangaroos hop.' }))
      .page_id;
    stub = await startAgentStub();
    await setSettings({ open_ai_key: 'sk-e2e-ask-secret', open_ai_host: stub.url });
    await saveItemAiConfig(await actorOf(owner), itemId, { enabled: 1 });
  },
});

afterAll(async () => {
  await stub?.close();
});

test('ask in the reader: the answer streams in, and its citation opens the page it read', async () => {
  const pieces = ['Quokkas ', 'live on ', '**Rottnest Island**', ' — see the page.'];
  stub.script([
    () => ({ tools: [{ name: 'search_pages', args: { query: 'quokka habitat' } }] }),
    (request) => {
      const hit = (JSON.parse(toolResults(request)[0]!) as { results: { page_id: number }[] })
        .results[0]!.page_id;
      return { tools: [{ name: 'read_page', args: { page_id: hit } }] };
    },
    () => ({ text: pieces, delayMs: 400 }),
  ]);
  const page = await suite.openAs(owner, `/${itemId}/${kangaroos}`);
  await page.locator('[data-testid="ask"]').click();
  const panel = page.locator('[data-testid="ask-panel"]');
  await panel.locator('[data-testid="ask-input"]').fill('Where do quokkas live?');
  await panel.locator('[data-testid="ask-send"]').click();

  const answer = panel.locator('[data-testid="ask-assistant"]').last();
  // Part of the answer is on screen while the stream still runs (the Stop button is up).
  await answer.getByText('live on', { exact: false }).waitFor();
  expect(await panel.locator('[data-testid="ask-stop"]').isVisible()).toBe(true);
  expect(await answer.textContent()).not.toContain('see the page');
  // Then the whole answer, rendered as Markdown (bold), and its source.
  await answer.locator('strong', { hasText: 'Rottnest Island' }).waitFor();
  await answer.getByText('see the page', { exact: false }).waitFor();
  const citation = answer.locator('[data-testid="ask-citation"]');
  await citation.waitFor();
  expect(await citation.textContent()).toBe('Where quokkas live');
  await panel.locator('[data-testid="ask-send"]').waitFor();
  await screenshot(page, 'ask-the-docs');

  await citation.click();
  await page.waitForURL(`${suite.server.url}/${itemId}/${quokkas}`);
  await page.locator('[data-testid="page-title"]', { hasText: 'Where quokkas live' }).waitFor();
  expect(stub.requests.at(-1)!.raw).not.toContain('sk-e2e-ask-secret');
});

test('item settings → Assistant: a manager lets guests ask and sets the welcome message', async () => {
  const page = await suite.openAs(owner, `/item/setting/${itemId}`);
  await page.getByRole('tab', { name: 'Assistant' }).click();
  const enabled = page.locator('[data-testid="assistant-enabled"]');
  await enabled.waitFor();
  expect(await enabled.getAttribute('aria-checked')).toBe('true');
  await page.locator('[data-testid="assistant-guests"]').click();
  await page.getByLabel('Welcome message').fill('Ask about the zoo');
  await page.locator('[data-testid="assistant-save"]').click();
  await page.getByText('Saved', { exact: false }).first().waitFor();
  expect(await aiConfigOf(itemId)).toMatchObject({
    enabled: 1,
    guest_enabled: 1,
    welcome_message: 'Ask about the zoo',
  });
});
