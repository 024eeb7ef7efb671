/**
 * Test catalogs and pages, made through the same model functions the API uses (saveCatalog,
 * savePage), so every rule and event applies. Needs a running test server in this process.
 */
import { saveCatalog } from '../../models/catalogs/catalogs';
import { savePage } from '../../models/pages';
import type { PageDoc } from '../../models/pages/schemas/page';
import { actorOf } from './factories';
import type { TestUser } from './users';

/** A catalog (top level unless `parentCatId`), created by `by` (an editor of the item). */
export async function makeCatalog(
  by: TestUser,
  itemId: number,
  name: string,
  parentCatId = 0,
): Promise<number> {
  return saveCatalog(await actorOf(by), {
    itemId,
    catId: 0,
    catName: name,
    parentCatId,
    sNumber: 0,
  });
}

let pageCounter = 0;

export interface MakePageOptions {
  title?: string;
  content?: string;
  catId?: number;
  isDraft?: 0 | 1;
  customId?: string;
}

/** A page saved by `author` (an editor of the item). */
export async function makePage(
  author: TestUser,
  itemId: number,
  opts: MakePageOptions = {},
): Promise<PageDoc> {
  const n = ++pageCounter;
  const { page } = await savePage(
    await actorOf(author),
    {
      pageId: 0,
      itemId,
      title: opts.title ?? `Page ${n}`,
      content: opts.content ?? `# Page ${n}\n\nBody of page ${n}.`,
      catId: opts.catId,
      isDraft: opts.isDraft,
      customId: opts.customId,
    },
    { origin: 'rest' },
  );
  return page;
}

/** Saves a new version of an existing page. */
export async function updatePage(
  author: TestUser,
  page: Pick<PageDoc, 'page_id' | 'item_id'>,
  content: string,
  title = 'Updated',
): Promise<PageDoc> {
  const result = await savePage(
    await actorOf(author),
    { pageId: page.page_id, itemId: page.item_id, title, content },
    { origin: 'rest' },
  );
  return result.page;
}

/** Pages saved one after another by `author`, in the order given (their ids follow it). */
export async function makePages(
  author: TestUser,
  itemId: number,
  pages: MakePageOptions[],
): Promise<PageDoc[]> {
  const made: PageDoc[] = [];
  for (const opts of pages) made.push(await makePage(author, itemId, opts));
  return made;
}
