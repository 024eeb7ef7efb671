/**
 * Every MCP tool, in ShowDoc's order: the one registry `tools/list` and `tools/call` read.
 * Each module owns its tools; add a module's list here.
 */
import type { McpTool } from '../toolkit';
import { attachmentTools } from './attachments';
import { catalogTools } from './catalogs';
import { historyTools } from './history';
import { itemTools } from './items';
import { kanbanTools } from './kanban';
import { linkTools } from './links';
import { pageEditTools } from './pageEdit';
import { openapiTools } from './openapi';
import { pageReadTools } from './pageRead';
import { runapiTools } from './runapi';

/** ShowDoc's order: items, catalogs, pages, history, links (then attachments, OpenAPI, kanban, RunApi). */
const PAGE_ORDER = [
  'list_pages',
  'get_page',
  'batch_get_pages',
  'search_pages',
  'search_all_pages',
  'get_page_template',
  'create_page',
  'create_page_by_comment',
  'update_page',
  'update_page_diff',
  'upsert_page',
  'batch_upsert_pages',
  'delete_page',
];
const pageTools = [...pageReadTools, ...pageEditTools].sort(
  (a, b) => PAGE_ORDER.indexOf(a.name) - PAGE_ORDER.indexOf(b.name),
);

export const ALL_TOOLS: McpTool[] = [
  ...itemTools,
  ...catalogTools,
  ...pageTools,
  ...historyTools,
  ...linkTools,
  ...attachmentTools,
  ...openapiTools,
  ...kanbanTools,
  ...runapiTools,
];

/** Tools by name. */
export const TOOLS_BY_NAME: ReadonlyMap<string, McpTool> = new Map(
  ALL_TOOLS.map((tool) => [tool.name, tool]),
);
