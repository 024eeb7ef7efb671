/**
 * The MCP tools' permission answers. The rights themselves come from models/access (the caller's
 * Actor carries the token's limits, so every models/ function a tool calls enforces them too);
 * this file only turns "may not" into ShowDoc's MCP codes (McpHandler::require*Permission):
 * -32002 outside the token's items, -32003 not a member, -32004 no edit/manage right, -32006
 * missing. A domain refusal (ApiError) becomes -32010 with its message and REST code.
 */
import { itemAccess, type ItemAccess, permits } from '../../models/access';
import { findLivePage, pageVisible } from '../../models/pages';
import type { PageDoc } from '../../models/pages';
import { isApiError } from '../../models/platform';
import { MCP_ERRORS, type McpCaller, McpToolError } from './toolkit';

export type Need = 'read' | 'write' | 'manage';

function inScope(caller: McpCaller, itemId: number): boolean {
  return caller.token.scope === 'all' || caller.token.itemIds.includes(itemId);
}

/** The caller's access to an item, or the MCP refusal ShowDoc gives for `need`. */
export async function itemFor(caller: McpCaller, itemId: number, need: Need): Promise<ItemAccess> {
  if (need !== 'read' && caller.token.permission !== 'write')
    throw new McpToolError(
      MCP_ERRORS.TOKEN_OPERATION_DENIED,
      'This token is read-only: it may not write',
    );
  if (!inScope(caller, itemId))
    throw new McpToolError(
      MCP_ERRORS.TOKEN_SCOPE_DENIED,
      "This item is outside the token's selected items",
    );
  const access = await itemAccess(caller.actor, itemId);
  if (!access) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Item not found');
  // A public item is readable by anyone, but ShowDoc's MCP answers members only.
  if (!permits(access, 'item.belong') || !permits(access, 'item.read'))
    throw new McpToolError(MCP_ERRORS.NOT_ITEM_MEMBER, 'You are not a member of this item');
  if (need === 'write' && !permits(access, 'page.update'))
    throw new McpToolError(
      MCP_ERRORS.NO_EDIT_PERMISSION,
      access.archived
        ? 'This item is archived and read-only'
        : 'Permission denied: you have no edit permission in this item',
    );
  if (need === 'manage' && !permits(access, 'item.manage'))
    throw new McpToolError(
      MCP_ERRORS.NO_EDIT_PERMISSION,
      access.archived
        ? 'This item is archived and read-only'
        : 'Permission denied: this needs the item manager role',
    );
  return access;
}

/** A live page the caller may reach with `need` (a page hidden by a catalog restriction is missing). */
export async function pageFor(
  caller: McpCaller,
  pageId: number,
  need: Need,
): Promise<{ page: PageDoc; access: ItemAccess }> {
  const page = await findLivePage(pageId);
  if (!page) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Page not found');
  const access = await itemFor(caller, page.item_id, need);
  if (!(await pageVisible(caller.actor, access, page)))
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Page not found');
  return { page, access };
}

/** Any error out of a tool as the MCP error it answers (never an internal detail). */
export function asToolError(error: unknown): McpToolError {
  if (error instanceof McpToolError) return error;
  if (isApiError(error))
    return new McpToolError(MCP_ERRORS.OPERATION_FAILED, error.message, {
      error_code: error.code,
    });
  return new McpToolError(MCP_ERRORS.INTERNAL_ERROR, 'Internal server error');
}

/** Runs a domain call, turning its refusal into the MCP error (for per-entry results in batches). */
export async function attempt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asToolError(error);
  }
}
