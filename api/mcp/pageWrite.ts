/**
 * How every page-writing MCP tool saves: through models/pages `savePage` (the REST save — history,
 * change log, events, live documents), under the token's Actor, with the agent descriptor that
 * shows "Claude via token 'docs-bot'" in the open editors and as the version's remark. A page
 * locked by another person answers the lock error; an `expected_hash` that no longer matches
 * answers ShowDoc's version conflict.
 */
import { createHash } from 'node:crypto';
import type { ItemAccess } from '../../models/access';
import { pageLockState, savePage } from '../../models/pages';
import { MAX_TITLE_LENGTH } from '../../models/pages';
import type { PageDoc } from '../../models/pages';
import { Page } from '../../models/pages';
import { attempt } from './access';
import { agentOf, MCP_ERRORS, type McpCaller, McpToolError } from './toolkit';

/** Characters of Markdown one page may hold through MCP (the endpoint takes 1 MB bodies anyway). */
export const MAX_PAGE_CONTENT = 1024 * 1024;

/** ShowDoc's content_hash: the first 12 hex characters of the text's MD5. */
export function contentHash(text: string): string {
  return createHash('md5').update(text).digest('hex').slice(0, 12);
}

export function checkTitle(raw: string): string {
  const title = raw.trim();
  if (!title) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The page title is required');
  if (title.length > MAX_TITLE_LENGTH)
    throw new McpToolError(
      MCP_ERRORS.CONTENT_TOO_LARGE,
      `The page title must be at most ${MAX_TITLE_LENGTH} characters`,
    );
  return title;
}

export function checkContent(content: string): string {
  if (!content)
    throw new McpToolError(
      MCP_ERRORS.INVALID_PARAMS,
      'Empty content is not allowed, please write something',
    );
  if (content.length > MAX_PAGE_CONTENT)
    throw new McpToolError(
      MCP_ERRORS.CONTENT_TOO_LARGE,
      `The page content is too large (at most ${MAX_PAGE_CONTENT} characters); split it into several pages`,
    );
  return content;
}

export function checkExpectedHash(page: PageDoc, expected: string | undefined): void {
  if (expected === undefined) return;
  const current = contentHash(page.page_content);
  if (expected !== current)
    throw new McpToolError(
      MCP_ERRORS.VERSION_CONFLICT,
      'Version conflict: the page was changed by someone else',
      {
        error_type: 'version_conflict',
        your_hash: expected,
        current_hash: current,
        suggestion: 'Fetch the latest content, merge your change and submit again',
      },
    );
}

/** A page with the same title in the same catalog (other than `exceptPageId`). */
export async function titleTaken(
  itemId: number,
  catId: number,
  title: string,
  exceptPageId = 0,
): Promise<boolean> {
  const found = await Page.exists({
    item_id: itemId,
    cat_id: catId,
    page_title: title,
    is_del: 0,
    ...(exceptPageId ? { page_id: { $ne: exceptPageId } } : {}),
  });
  return Boolean(found);
}

async function refuseIfLocked(caller: McpCaller, pageId: number): Promise<void> {
  const lock = await attempt(() => pageLockState(caller.actor, pageId));
  if (lock.lock === 1 && lock.is_cur_user !== 1)
    throw new McpToolError(
      MCP_ERRORS.OPERATION_FAILED,
      `This page is locked by another user (${lock.lock_username}) who is editing it`,
      { error_type: 'page_locked', lock_username: lock.lock_username },
    );
}

export interface PageWrite {
  /** Absent: create. */
  existing?: PageDoc;
  title: string;
  content: string;
  catId: number;
  sNumber?: number;
  origin?: 'rest' | 'history';
}

/** Saves through the REST save path; returns the stored page. */
export async function writePage(
  caller: McpCaller,
  access: ItemAccess,
  write: PageWrite,
): Promise<PageDoc> {
  if (write.existing) await refuseIfLocked(caller, write.existing.page_id);
  const agent = agentOf(caller);
  const { page } = await attempt(() =>
    savePage(
      caller.actor,
      {
        pageId: write.existing?.page_id ?? 0,
        itemId: access.item.item_id,
        title: write.title,
        content: write.content,
        catId: write.catId,
        sNumber: write.sNumber,
        remark: agent.label,
      },
      { origin: write.origin ?? 'rest', agent },
    ),
  );
  return page;
}
