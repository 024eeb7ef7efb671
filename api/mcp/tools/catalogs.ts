/**
 * Catalog tools (ShowDoc's CatalogHandler): read, create, update and delete catalogs through
 * models/catalogs, and the catalog resolution the page tools share (`cat_id`, or a `cat_name`
 * path "A/B" created as needed).
 */
import { canSeeCatalog, type ItemAccess } from '../../../models/access';
import { deleteCatalog, itemCatalogs, saveCatalog } from '../../../models/catalogs';
import { Catalog } from '../../../models/catalogs';
import { Page } from '../../../models/pages';
import { attempt, itemFor } from '../access';
import { has, idArg, intArg, optionalStringArg, stringArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';

const catId = integer('Catalog ID');

async function catalogFor(caller: McpCaller, id: number, need: 'read' | 'write' | 'manage') {
  const catalog = await Catalog.findOne({ cat_id: id }, { _id: 0 }).lean();
  if (!catalog) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Catalog not found');
  const access = await itemFor(caller, catalog.item_id, need);
  if (!(await canSeeCatalog(access, catalog.cat_id)))
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Catalog not found');
  return { catalog, access };
}

/**
 * The catalog a page tool targets: `cat_id` when given (it must be this item's), else the
 * `cat_name` path ("A/B/C"), each missing level created; 0 (root) when neither.
 */
export async function resolveCatId(
  caller: McpCaller,
  access: ItemAccess,
  catIdArg: number,
  catName: string,
): Promise<number> {
  const itemId = access.item.item_id;
  if (catIdArg > 0) {
    const found = await Catalog.exists({ cat_id: catIdArg, item_id: itemId });
    if (!found || !(await canSeeCatalog(access, catIdArg)))
      throw new McpToolError(
        MCP_ERRORS.INVALID_PARAMS,
        `Catalog ${catIdArg} does not exist in this item`,
      );
    return catIdArg;
  }
  const names = catName
    .split('/')
    .map((n) => n.trim())
    .filter(Boolean);
  if (!names.length) return 0;
  let parent = 0;
  for (const name of names) {
    const catalogs = await itemCatalogs(itemId);
    const existing = catalogs.find((c) => c.parent_cat_id === parent && c.cat_name === name);
    parent = existing
      ? existing.cat_id
      : await attempt(() =>
          saveCatalog(caller.actor, {
            itemId,
            catId: 0,
            catName: name,
            parentCatId: parent,
            sNumber: 99,
          }),
        );
  }
  return parent;
}

export const catalogTools = defineTools(
  {
    name: 'get_catalog',
    description: 'Get a catalog',
    inputSchema: objectSchema({ cat_id: catId }, ['cat_id']),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'cat_id');
      const { catalog } = await catalogFor(caller, id, 'read');
      const pageCount = await Page.countDocuments({
        item_id: catalog.item_id,
        cat_id: id,
        is_del: 0,
      });
      return {
        cat_id: catalog.cat_id,
        cat_name: catalog.cat_name,
        item_id: catalog.item_id,
        parent_cat_id: catalog.parent_cat_id,
        s_number: catalog.s_number,
        addtime: catalog.addtime,
        page_count: pageCount,
      };
    },
  },
  {
    name: 'create_catalog',
    description: 'Create a catalog',
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID'),
        cat_name: string('Catalog name'),
        parent_cat_id: integer('Parent catalog ID (optional, default: top level)'),
        s_number: integer('Order (optional)'),
      },
      ['item_id', 'cat_name'],
    ),
    write: true,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const name = stringArg(args, 'cat_name').trim();
      if (!name) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The catalog name is required');
      await itemFor(caller, itemId, 'write');
      const parent = intArg(args, 'parent_cat_id', 0, 0);
      if (parent > 0 && !(await Catalog.exists({ cat_id: parent, item_id: itemId })))
        throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Parent catalog not found');
      const created = await attempt(() =>
        saveCatalog(caller.actor, {
          itemId,
          catId: 0,
          catName: name,
          parentCatId: parent,
          sNumber: intArg(args, 's_number', 99, 0),
        }),
      );
      return { cat_id: created, cat_name: name, parent_cat_id: parent, message: 'Catalog created' };
    },
  },
  {
    name: 'update_catalog',
    description: "Update a catalog's name or order",
    inputSchema: objectSchema(
      { cat_id: catId, cat_name: string('Catalog name'), s_number: integer('Order') },
      ['cat_id'],
    ),
    write: true,
    async handler(caller, args) {
      const id = idArg(args, 'cat_id');
      const { catalog } = await catalogFor(caller, id, 'write');
      const name = has(args, 'cat_name')
        ? optionalStringArg(args, 'cat_name').trim()
        : catalog.cat_name;
      if (!name) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The catalog name is required');
      const parent = has(args, 'parent_cat_id') ? intArg(args, 'parent_cat_id', 0, 0) : undefined;
      if (parent && !(await Catalog.exists({ cat_id: parent, item_id: catalog.item_id })))
        throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Parent catalog not found');
      await attempt(() =>
        saveCatalog(caller.actor, {
          itemId: catalog.item_id,
          catId: id,
          catName: name,
          parentCatId: parent,
          sNumber: intArg(args, 's_number', catalog.s_number, 0),
        }),
      );
      return { cat_id: id, message: 'Catalog updated' };
    },
  },
  {
    name: 'delete_catalog',
    description: 'Delete a catalog with its sub-catalogs and pages (pages go to the recycle bin)',
    inputSchema: objectSchema({ cat_id: catId }, ['cat_id']),
    write: true,
    async handler(caller, args) {
      const id = idArg(args, 'cat_id');
      const { catalog } = await catalogFor(caller, id, 'manage');
      const all = await itemCatalogs(catalog.item_id);
      const below = new Set([id]);
      for (let grew = true; grew;) {
        grew = false;
        for (const c of all)
          if (below.has(c.parent_cat_id) && !below.has(c.cat_id)) {
            below.add(c.cat_id);
            grew = true;
          }
      }
      await attempt(() => deleteCatalog(caller.actor, id));
      return { cat_id: id, deleted_catalogs: below.size, message: 'Catalog deleted' };
    },
  },
);
