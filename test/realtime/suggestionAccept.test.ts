/**
 * Accepting a suggestion while the page is open (models/suggestions → savePage with `rebase` →
 * realtime/collab/liveBridge.ts): the open document takes only the accepted change, so what an
 * editor typed elsewhere and has not saved survives, while the saved version holds the saved text
 * plus the accepted change — never the editor's unsaved typing nor a rejected suggestion.
 */
import { afterEach, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makePage } from '../helpers/pages';

const suite = apiSuite({ item: {}, teardown: closeAllCollabClients });
afterEach(closeAllCollabClients);

test('the open document takes only the accepted change; unsaved typing elsewhere stays', async () => {
  const base = 'Line one.\nLine two.\nLine three.\n';
  const page = await makePage(suite.owner, suite.itemId, { content: base });
  const editor = await openSynced(suite.server.url, page.page_id, suite.editor.user_token);
  editor.text.insert(0, 'Unsaved heading\n');
  await eventually(() => expect(editor.provider.hasUnsyncedChanges).toBe(false));

  const owner = suite.as(suite.owner);
  const made = await owner.ok<{ suggestion_ids: number[] }>('suggestion/propose', {
    page_id: page.page_id,
    changes: JSON.stringify([
      { from: 10, old_text: 'Line two.', new_text: 'Line 2.', before: 'Line one.\n', after: '\n' },
      { from: 20, old_text: 'three', new_text: 'III', before: 'Line ', after: '.\n' },
    ]),
  });
  const [two, three] = made.suggestion_ids;
  await owner.ok('suggestion/accept', { page_id: page.page_id, suggestion_ids: two });
  await owner.ok('suggestion/reject', { page_id: page.page_id, suggestion_ids: three });

  await textBecomes(editor, 'Unsaved heading\nLine one.\nLine 2.\nLine three.\n');
  const saved = await owner.ok<{ page_content: string }>('page/info', { page_id: page.page_id });
  expect(saved.page_content).toBe('Line one.\nLine 2.\nLine three.\n');
});
