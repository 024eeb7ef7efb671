/**
 * What items asks of the domains above it (each owner fills its port from its index.ts; see
 * models/platform/port.ts): a single-page item is created with its one page, which the pages
 * domain writes.
 */
import { definePort } from '../platform';

/** The one page of a new single-page, spreadsheet or whiteboard item (at the root). */
export interface FirstPage {
  item_id: number;
  page_title: string;
  page_content: string;
  /** The item's creation time, which the page takes. */
  addtime: number;
  author_uid: number;
  author_username: string;
}

export interface ItemPages {
  /** Writes the new item's one page (a new page id). */
  createFirstPage(page: FirstPage): Promise<void>;
}

export const itemPages = definePort<ItemPages>('items: the page of a new item', 'pages');
