/**
 * Item tools (ShowDoc's ItemHandler + get_item_overview): list, read, create, update and delete
 * items through models/items, under the token's Actor.
 */
import { addCreatedItemToScope, UserAiToken } from '../../../models/aiTokens';
import {
  catalogParents,
  catalogVisible,
  itemAccess,
  type ItemAccess,
  permits,
} from '../../../models/access';
import { itemCatalogs } from '../../../models/catalogs';
import { createItem, deleteItemByToken, myItemList, updateItem } from '../../../models/items';
import { Page } from '../../../models/pages';
import { attempt, itemFor } from '../access';
import { idArg, intArg, has, optionalStringArg, stringArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';

const itemId = integer('Item ID');

/** ShowDoc's role names. */
function roleOf(access: ItemAccess): string {
  if (access.owner) return 'owner';
  if (access.manager) return 'admin';
  if (access.editor) return 'editor';
  return 'readonly';
}

async function tokenFlags(caller: McpCaller) {
  const doc = await UserAiToken.findOne(
    { id: caller.token.id },
    { can_create_item: 1, can_delete_item: 1, auto_add_created_item: 1, scope: 1, _id: 0 },
  ).lean();
  return doc ?? { can_create_item: 0, can_delete_item: 0, auto_add_created_item: 0, scope: 'all' };
}

export const itemTools = defineTools(
  {
    name: 'list_items',
    description: 'List every item (project) the user can access',
    inputSchema: objectSchema({}),
    write: false,
    async handler(caller) {
      const list = await attempt(() =>
        myItemList(caller.actor, { itemGroupId: 0, original: false }),
      );
      const items = [];
      for (const entry of list) {
        const id = Number(entry.item_id);
        if (caller.token.scope === 'selected' && !caller.token.itemIds.includes(id)) continue;
        const access = await itemAccess(caller.actor, id);
        if (!access || !permits(access, 'item.read')) continue;
        items.push({
          item_id: id,
          item_name: access.item.item_name,
          item_type: access.item.item_type || 1,
          item_description: access.item.item_description ?? '',
          role: roleOf(access),
          create_time: access.item.addtime,
          last_update_time: access.item.last_update_time,
        });
      }
      return { items, total: items.length };
    },
  },
  {
    name: 'get_item',
    description:
      'Get an item (project) with its share_url (the link to its home, to share with others)',
    inputSchema: objectSchema({ item_id: itemId }, ['item_id']),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'item_id');
      const access = await itemFor(caller, id, 'read');
      const pageCount = await Page.countDocuments({ item_id: id, is_del: 0 });
      return {
        item_id: id,
        item_name: access.item.item_name,
        item_type: access.item.item_type || 1,
        item_description: access.item.item_description ?? '',
        role: roleOf(access),
        create_time: access.item.addtime,
        last_update_time: access.item.last_update_time,
        page_count: pageCount,
        share_url: `${caller.baseUrl}/${id}`,
      };
    },
  },
  {
    name: 'create_item',
    description: 'Create a new item (project)',
    inputSchema: objectSchema(
      {
        item_name: string('Item name'),
        item_type: integer(
          'Item type: 1 = regular documents (default), 2 = single page, 3 = RunApi, 6 = kanban board',
        ),
        item_description: string('Item description'),
      },
      ['item_name'],
    ),
    write: true,
    async handler(caller, args) {
      const flags = await tokenFlags(caller);
      if (flags.can_create_item !== 1)
        throw new McpToolError(
          MCP_ERRORS.TOKEN_OPERATION_DENIED,
          'This token may not create items',
        );
      const name = stringArg(args, 'item_name').trim();
      if (!name) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The item name is required');
      const type = intArg(args, 'item_type', 1, 1);
      const description = optionalStringArg(args, 'item_description').trim();
      const { item_id: created } = await attempt(() =>
        createItem(caller.actor, {
          item_name: name,
          item_type: type,
          item_description: description,
        }),
      );
      const token = await UserAiToken.findOne({ id: caller.token.id }, { _id: 0 }).lean();
      if (token) await addCreatedItemToScope(token, created);
      return {
        item_id: created,
        item_name: name,
        item_type: type,
        item_description: description,
        message: 'Item created',
      };
    },
  },
  {
    name: 'update_item',
    description: "Update an item's name or description",
    inputSchema: objectSchema(
      {
        item_id: itemId,
        item_name: string('Item name'),
        item_description: string('Item description'),
      },
      ['item_id'],
    ),
    write: true,
    async handler(caller, args) {
      const id = idArg(args, 'item_id');
      const access = await itemFor(caller, id, 'write');
      if (!permits(access, 'item.manage'))
        throw new McpToolError(
          MCP_ERRORS.NO_EDIT_PERMISSION,
          'Only the item managers may change the item',
        );
      const update: { item_name?: string; item_description?: string } = {};
      if (has(args, 'item_name')) {
        update.item_name = optionalStringArg(args, 'item_name').trim();
        if (!update.item_name)
          throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The item name may not be empty');
      }
      if (has(args, 'item_description'))
        update.item_description = optionalStringArg(args, 'item_description').trim();
      if (!Object.keys(update).length)
        throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'Nothing to update');
      await attempt(() => updateItem(caller.actor, id, update));
      return { item_id: id, message: 'Item updated' };
    },
  },
  {
    name: 'delete_item',
    description: 'Delete an item (to the recycle bin)',
    inputSchema: objectSchema({ item_id: itemId }, ['item_id']),
    write: true,
    async handler(caller, args) {
      const id = idArg(args, 'item_id');
      const flags = await tokenFlags(caller);
      if (flags.can_delete_item !== 1)
        throw new McpToolError(
          MCP_ERRORS.TOKEN_OPERATION_DENIED,
          'This token may not delete items',
        );
      const access = await itemFor(caller, id, 'manage');
      if (!permits(access, 'item.actAsOwner'))
        throw new McpToolError(
          MCP_ERRORS.NO_EDIT_PERMISSION,
          'Only the item creator can delete the item',
        );
      await attempt(() => deleteItemByToken(caller.actor, id));
      return { item_id: id, message: 'Item deleted' };
    },
  },
  {
    name: 'get_item_overview',
    description:
      "The item's whole catalog tree and page list without page contents: every catalog (nested ones included) and its pages (page_id, page_title, s_number)",
    inputSchema: objectSchema({ item_id: itemId }, ['item_id']),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'item_id');
      const access = await itemFor(caller, id, 'read');
      return itemOverview(access);
    },
  },
);

interface OverviewPage {
  page_id: number;
  page_title: string;
  s_number: number;
}
interface OverviewCatalog {
  cat_id: number;
  cat_name: string;
  s_number: number;
  pages?: OverviewPage[];
  children?: OverviewCatalog[];
}

async function itemOverview(access: ItemAccess) {
  const id = access.item.item_id;
  const [catalogs, pages] = await Promise.all([
    itemCatalogs(id),
    Page.find(
      { item_id: id, is_del: 0, is_draft: { $ne: 1 } },
      { page_id: 1, page_title: 1, cat_id: 1, s_number: 1, _id: 0 },
    )
      .sort({ s_number: 1, page_id: 1 })
      .lean(),
  ]);
  const parents = access.catalogRestriction ? await catalogParents(id) : null;
  const visible = (catId: number) => !parents || catalogVisible(access, catId, parents);
  const byCat = new Map<number, OverviewPage[]>();
  for (const p of pages) {
    if (!visible(p.cat_id)) continue;
    const list = byCat.get(p.cat_id) ?? [];
    list.push({ page_id: p.page_id, page_title: p.page_title, s_number: p.s_number });
    byCat.set(p.cat_id, list);
  }
  const sorted = [...catalogs].sort((a, b) => a.s_number - b.s_number || a.cat_id - b.cat_id);
  const build = (parent: number, depth: number): OverviewCatalog[] =>
    depth > 16
      ? []
      : sorted
          .filter((c) => c.parent_cat_id === parent && visible(c.cat_id))
          .map((c) => {
            const node: OverviewCatalog = {
              cat_id: c.cat_id,
              cat_name: c.cat_name,
              s_number: c.s_number,
            };
            const own = byCat.get(c.cat_id);
            if (own?.length) node.pages = own;
            const children = build(c.cat_id, depth + 1);
            if (children.length) node.children = children;
            return node;
          });
  const result: Record<string, unknown> = { item_id: id, item_name: access.item.item_name };
  const rootPages = byCat.get(0);
  if (rootPages?.length) result.pages = rootPages;
  const tree = build(0, 0);
  if (tree.length) result.catalogs = tree;
  return result;
}
