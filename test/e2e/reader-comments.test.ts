/**
 * Page comments and feedback in the reader (items with allow_comment / allow_feedback): a reader
 * comments on a page, the page's author — on the same page in another browser — sees the comment
 * arrive and gets the notice live; the helpful / not helpful counts follow the reader's votes.
 */
import { expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';
import { forgetCachedReads } from '../../models/platform';

const suite = browserSuite();

const loggedIn = (user: TestUser, path: string) => suite.openAs(user, path);

test('a reader comments on a page; the author sees it and the notice live; feedback counts', async () => {
  const author = await makeUser();
  const reader = await makeUser();
  const { item_id: itemId } = await makeItem(author, { item_name: 'Handbook' });
  await Item.updateOne({ item_id: itemId }, { $set: { allow_comment: 1, allow_feedback: 1 } });
  forgetCachedReads();
  await addMember(itemId, reader, 0);
  const page = await makePage(author, itemId, { title: 'Onboarding', content: '# Welcome' });
  const path = `/${itemId}/${page.page_id}`;

  const authorPage = await loggedIn(author, path);
  await authorPage.getByTestId('page-comments').getByText('No comments yet').waitFor();

  const readerPage = await loggedIn(reader, path);
  // The reader shows up in the author's presence list: both sockets watch the page's room.
  await authorPage.getByTestId('presence').getByText(reader.username).waitFor();
  const comments = readerPage.getByTestId('page-comments');
  await comments
    .getByRole('textbox', { name: 'Write a comment…' })
    .fill('Where is <the> VPN guide?');
  await comments.getByRole('button', { name: 'Send' }).click();
  // The posted comment (until the answer comes back, the box still holds the same text).
  await comments.getByTestId('page-comment').getByText('Where is <the> VPN guide?').waitFor();

  // The author's open page reloads its comments from the room, and the reminder arrives live.
  await authorPage.getByTestId('page-comments').getByText('Where is <the> VPN guide?').waitFor();
  await authorPage.locator('[data-testid="notices-icon"][data-unread="yes"]').waitFor();
  await authorPage
    .getByText(`${reader.username} commented on the page "Onboarding". Click to view.`)
    .waitFor();
  await screenshot(authorPage, 'comments-author-notice');

  // The author replies; the reader sees the reply under the comment.
  const authorComments = authorPage.getByTestId('page-comments');
  await authorComments.getByRole('button', { name: 'Reply' }).click();
  await authorComments.getByTestId('reply-composer').getByRole('textbox').fill('See the IT page.');
  await authorComments.getByTestId('reply-composer').getByRole('button', { name: 'Send' }).click();
  await comments.getByText('See the IT page.').waitFor();
  expect(await comments.getByTestId('page-comment').count()).toBe(2);

  // Feedback: one vote per reader, taken back by voting the same way again.
  const helpful = readerPage.getByTestId('feedback-helpful');
  await helpful.filter({ hasText: 'Helpful (0)' }).waitFor();
  await helpful.click();
  await helpful.filter({ hasText: 'Helpful (1)' }).waitFor();
  expect(await helpful.getAttribute('aria-pressed')).toBe('true');
  await readerPage.getByTestId('feedback-unhelpful').click();
  await readerPage
    .getByTestId('feedback-unhelpful')
    .filter({ hasText: 'Not helpful (1)' })
    .waitFor();
  await helpful.filter({ hasText: 'Helpful (0)' }).waitFor();
  await screenshot(readerPage, 'comments-reader-feedback');
});

test('each switch on its own: feedback only shows no comment box', async () => {
  const author = await makeUser();
  const { item_id: itemId } = await makeItem(author);
  await Item.updateOne({ item_id: itemId }, { $set: { allow_feedback: 1 } });
  forgetCachedReads();
  const page = await makePage(author, itemId, { title: 'Plain' });
  const tab = await loggedIn(author, `/${itemId}/${page.page_id}`);
  // Both render together once the chunk is in: feedback present means comments were decided.
  await tab.getByTestId('page-feedback').waitFor();
  expect(await tab.getByTestId('page-comments').count()).toBe(0);
});
