/**
 * `open` (ShowDoc's OpenController, reference pages §8): scripts keep an item in sync with its
 * `api_key` + `api_token`, which travel as ordinary parameters. `export/checkMarkdownLimit` too;
 * the exports themselves are downloads, not envelopes.
 */
import { z } from 'zod';
import { action, id, int, nothing, str } from './coerce';
import { Menu } from './page';
import { syncResult } from './apiContract';

const key = { api_key: str(), api_token: str() };
const PageRow = z.looseObject({ page_id: z.string(), page_title: z.string() });
const CatalogRow = z.looseObject({ cat_id: z.string(), cat_name: z.string() });

export const updatePageByApi = action(
  {
    ...key,
    cat_name: str(),
    cat_name_sub: str(),
    page_title: str(),
    page_content: str(),
    s_number: int(99),
  },
  PageRow,
);

export const openContract = {
  updatePage: updatePageByApi,
  updateItem: updatePageByApi,
  getPage: action({ ...key, page_id: id(), page_title: str() }, PageRow),
  deletePage: action({ ...key, page_id: id() }, z.object({ page_id: z.number() })),
  getCatalogTree: action(key, Menu),
  createCatalog: action(
    { ...key, cat_name: str(), parent_cat_id: id(), s_number: int(99) },
    CatalogRow,
  ),
  updateCatalog: action({ ...key, cat_id: id(), cat_name: str(), s_number: int() }, CatalogRow),
  deleteAttachment: action(
    { ...key, sign: str(), file_url: str(), file_id: id() },
    z.object({ file_id: z.number() }),
  ),
  deleteCatalog: action({ ...key, cat_id: id() }, z.object({ cat_id: z.number() })),
  /** Quire's: CI pushes the item's OpenAPI/Swagger document (JSON or YAML text) as `spec`. */
  pushSpec: action({ ...key, spec: str() }, syncResult),
};

export const exportContract = {
  checkMarkdownLimit: action({}, nothing),
};
