/**
 * Article IDs (page_custom_id) name one page of their item (spec 001 §5 "page ID must be unique
 * per language"; Quire's pages have no language, so unique in the item): a taken one is refused
 * with the message the editor clears the field on, and one of digits only may not shadow another
 * page's numeric address — it must be the page's own ID.
 */
import { describe, expect, test } from '@jest/globals';
import { Page } from '../../models/pages/schemas/page';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';

const suite = apiSuite({ item: {} });
const { as } = suite;

const save = (pageId: number, customId: string, itemId = suite.itemId) =>
  as(suite.owner).call('page/save', {
    item_id: itemId,
    page_id: pageId,
    page_title: `Page ${customId}`,
    page_content: 'text',
    page_custom_id: customId,
  });

describe('article IDs', () => {
  test("a page's numeric ID cannot be taken as another page's article ID; nothing is stored", async () => {
    const target = await makePage(suite.owner, suite.itemId, { title: 'Numbered' });
    const other = await makePage(suite.owner, suite.itemId, { title: 'Other' });
    const answer = await save(other.page_id, String(target.page_id));
    expect(answer.body).toMatchObject({
      error_code: 10101,
      error_message: 'Article ID already exists',
    });
    expect((await Page.findOne({ page_id: other.page_id }).lean())?.page_custom_id).toBe('');
    // The address of the numbered page still opens it.
    const resolved = await as(suite.owner).ok<{ page_id: string }>('page/getPageID', {
      item_id: suite.itemId,
      page_custom_id: String(target.page_id),
    });
    expect(resolved.page_id).toBe(String(target.page_id));
  });

  test("digits only are refused for a new page and accepted as the page's own ID", async () => {
    const { item_id } = await makeItem(suite.owner);
    const before = await Page.countDocuments({ item_id });
    const answer = await save(0, '987654321', item_id);
    expect(answer.body).toMatchObject({
      error_code: 10101,
      error_message: "An article ID of digits only must be the page's own ID",
    });
    expect(await Page.countDocuments({ item_id })).toBe(before);

    const page = await makePage(suite.owner, item_id, { title: 'Self' });
    expect((await save(page.page_id, String(page.page_id), item_id)).body.error_code).toBe(0);
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_custom_id).toBe(
      String(page.page_id),
    );
  });

  test('a taken article ID is refused in the item and free in another item', async () => {
    const first = await makePage(suite.owner, suite.itemId, { customId: 'setup-guide' });
    const second = await makePage(suite.owner, suite.itemId);
    expect((await save(second.page_id, 'setup-guide')).body).toMatchObject({
      error_code: 10101,
      error_message: 'Article ID already exists',
    });
    const { item_id } = await makeItem(suite.owner);
    expect((await save(0, 'setup-guide', item_id)).body.error_code).toBe(0);
    expect(first.page_custom_id).toBe('setup-guide');
  });
});
