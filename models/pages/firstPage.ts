/**
 * The one page a new single-page, spreadsheet or whiteboard item starts with (models/items asks
 * through its port `itemPages`; the index plugs this in).
 */
import type { ItemPages } from '../items';
import { nextId } from '../platform';
import { Page } from './schemas';

export const pagesForItems: ItemPages = {
  async createFirstPage(page) {
    await Page.create({
      page_id: await nextId('page_id'),
      item_id: page.item_id,
      cat_id: 0,
      page_title: page.page_title,
      page_content: page.page_content,
      addtime: page.addtime,
      page_addtime: page.addtime,
      author_uid: page.author_uid,
      author_username: page.author_username,
    });
  },
};
