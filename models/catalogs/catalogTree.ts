/**
 * Pure tree rules for an item's catalogs: levels, ancestry, and the whole-tree validation behind
 * `catalog/batUpdate` (the drag-and-drop save).
 *
 * ShowDoc applied each dragged node as it came, with no parent, cycle or depth checks, so one bad
 * request could leave a catalog under its own descendant (invisible forever) or five levels deep.
 * Here a request is checked as a whole tree first — every id belongs to the item, no node twice,
 * no cycle, catalogs at most three levels deep (levels 2–4), no node inside a page, and levels
 * consistent with the parents — and only then turned into a plan of row changes. The plan holds
 * only the rows whose values differ, so ordering numbers are rewritten just for what moved.
 *
 * No database access here: models/catalogs.ts loads the rows, calls `planTreeUpdate`, and applies
 * the plan in one transaction.
 */
import { MAX_LEVEL, TOP_LEVEL } from './schemas/catalog';

/** Longest catalog name accepted (ShowDoc had no check; the UI shows one line). */
export const MAX_CATALOG_NAME = 200;
/** Nodes per batUpdate request: catalogs (≤ 1500) plus pages, with room to spare. */
export const MAX_TREE_NODES = 20_000;

export interface TreeCatalog {
  cat_id: number;
  cat_name: string;
  parent_cat_id: number;
  level: number;
  s_number: number;
}

export interface TreePage {
  page_id: number;
  cat_id: number;
  s_number: number;
}

/** One element of batUpdate's `cats` list after parsing (0 = absent). */
export interface TreeNode {
  cat_id: number;
  page_id: number;
  cat_name: string;
  parent_cat_id: number;
  level: number;
  s_number: number;
}

export interface CatalogChange {
  cat_id: number;
  set: Partial<Pick<TreeCatalog, 'cat_name' | 'parent_cat_id' | 'level' | 's_number'>>;
}

export interface PageChange {
  page_id: number;
  set: Partial<Pick<TreePage, 'cat_id' | 's_number'>>;
}

export interface TreePlan {
  catalogs: CatalogChange[];
  pages: PageChange[];
}

/**
 * A request that would break the tree (`invalid`) or reach outside the actor's catalogs
 * (`forbidden`); the message says which node and why.
 */
export class TreeError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'forbidden' = 'invalid',
  ) {
    super(message);
    this.name = 'TreeError';
  }
}

const NODE_KEYS = ['cat_id', 'page_id', 'parent_cat_id', 'level', 's_number'] as const;

function toInt(value: unknown, where: string): number {
  if (value === undefined || value === null || value === '') return 0;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new TreeError(`${where} must be a non-negative integer`);
  return n;
}

/**
 * The `cats` list as sent by ShowDoc's clients (an array of objects; numbers may be strings).
 * Anything else — not an array, nested objects, negative or fractional numbers — is refused.
 */
export function parseTreeNodes(value: unknown): TreeNode[] {
  if (!Array.isArray(value)) throw new TreeError('cats must be a JSON array');
  if (value.length > MAX_TREE_NODES)
    throw new TreeError(`cats may hold at most ${MAX_TREE_NODES} nodes`);
  return value.map((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new TreeError(`cats[${index}] must be an object`);
    const entry = raw as Record<string, unknown>;
    const node = { cat_name: '' } as TreeNode;
    for (const key of NODE_KEYS) node[key] = toInt(entry[key], `cats[${index}].${key}`);
    const name = entry.cat_name;
    if (name !== undefined && name !== null) {
      if (typeof name !== 'string' && typeof name !== 'number')
        throw new TreeError(`cats[${index}].cat_name must be text`);
      node.cat_name = String(name).trim();
    }
    return node;
  });
}

/**
 * Level of every catalog from its parent links; throws on a cycle. A parent that is not in the map
 * (a dangling link in migrated data) counts as the root.
 */
export function computeLevels(parentOf: Map<number, number>): Map<number, number> {
  const levels = new Map<number, number>();
  for (const start of parentOf.keys()) {
    const path: number[] = [];
    const onPath = new Set<number>();
    let current = start;
    let base = TOP_LEVEL - 1;
    while (current > 0) {
      const known = levels.get(current);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (onPath.has(current))
        throw new TreeError(`Catalog ${current} would be inside itself (a cycle)`);
      if (!parentOf.has(current)) break;
      onPath.add(current);
      path.push(current);
      current = parentOf.get(current)!;
    }
    for (let i = path.length - 1; i >= 0; i--) levels.set(path[i], ++base);
  }
  return levels;
}

/** The top-level catalog above (or equal to) `catId` (0 for the root), given parent links. */
export function topOf(catId: number, parentOf: Map<number, number>): number {
  let current = catId;
  for (let guard = 0; current > 0 && guard <= parentOf.size; guard++) {
    const parent = parentOf.get(current);
    if (parent === undefined || parent === 0) return current;
    current = parent;
  }
  return current;
}

/** `catId` and every catalog below it. */
export function subtreeOf(
  catId: number,
  catalogs: Iterable<Pick<TreeCatalog, 'cat_id' | 'parent_cat_id'>>,
): number[] {
  const children = new Map<number, number[]>();
  for (const c of catalogs) {
    const list = children.get(c.parent_cat_id);
    if (list) list.push(c.cat_id);
    else children.set(c.parent_cat_id, [c.cat_id]);
  }
  const out: number[] = [];
  const seen = new Set<number>();
  const stack = [catId];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    for (const child of children.get(id) ?? []) stack.push(child);
  }
  return out;
}

/** Levels below `catId` inside its subtree (0 = no child catalogs). */
export function subtreeHeight(
  catId: number,
  catalogs: Iterable<Pick<TreeCatalog, 'cat_id' | 'parent_cat_id'>>,
): number {
  const children = new Map<number, number[]>();
  for (const c of catalogs) {
    const list = children.get(c.parent_cat_id);
    if (list) list.push(c.cat_id);
    else children.set(c.parent_cat_id, [c.cat_id]);
  }
  const height = (id: number, seen: Set<number>): number => {
    if (seen.has(id)) return 0;
    seen.add(id);
    let best = 0;
    for (const child of children.get(id) ?? []) best = Math.max(best, 1 + height(child, seen));
    return best;
  };
  return height(catId, new Set());
}

export interface PlanOptions {
  /**
   * Top-level catalogs the actor is limited to (null = whole item). A restricted actor may only
   * change rows that sit inside those catalogs both before and after the change, and may not move
   * the granted top-level catalogs themselves.
   */
  restriction?: number[] | null;
}

/**
 * Validates a batUpdate request against the item's current catalogs and pages and returns the
 * row changes it implies. Nodes the request leaves out keep their place. Throws TreeError.
 */
export function planTreeUpdate(
  current: { catalogs: TreeCatalog[]; pages: TreePage[] },
  nodes: TreeNode[],
  options: PlanOptions = {},
): TreePlan {
  const catalogs = new Map(current.catalogs.map((c) => [c.cat_id, c]));
  const pages = new Map(current.pages.map((p) => [p.page_id, p]));
  const catNodes = new Map<number, TreeNode>();
  const pageNodes = new Map<number, TreeNode>();

  nodes.forEach((node, index) => {
    const where = `cats[${index}]`;
    if (node.cat_id > 0 && node.page_id > 0)
      throw new TreeError(`${where} is both a catalog and a page`);
    if (node.cat_id === 0 && node.page_id === 0)
      throw new TreeError(`${where} names neither a catalog nor a page`);
    if (node.parent_cat_id > 0 && !catalogs.has(node.parent_cat_id))
      throw new TreeError(
        `${where}: parent catalog ${node.parent_cat_id} does not belong to this item`,
      );
    if (node.cat_id > 0) {
      if (!catalogs.has(node.cat_id))
        throw new TreeError(`Catalog ${node.cat_id} does not belong to this item`);
      if (catNodes.has(node.cat_id)) throw new TreeError(`Catalog ${node.cat_id} appears twice`);
      if (node.parent_cat_id === node.cat_id)
        throw new TreeError(`Catalog ${node.cat_id} would be inside itself (a cycle)`);
      if (node.cat_name.length > MAX_CATALOG_NAME)
        throw new TreeError(`Catalog names may be at most ${MAX_CATALOG_NAME} characters`);
      catNodes.set(node.cat_id, node);
    } else {
      if (!pages.has(node.page_id))
        throw new TreeError(`Page ${node.page_id} does not belong to this item`);
      if (pageNodes.has(node.page_id)) throw new TreeError(`Page ${node.page_id} appears twice`);
      pageNodes.set(node.page_id, node);
    }
  });

  const parentBefore = new Map(current.catalogs.map((c) => [c.cat_id, c.parent_cat_id]));
  // Dangling parent links (migrated data) are healed to the root by the next tree save.
  const parentAfter = new Map(
    current.catalogs.map((c) => [c.cat_id, catalogs.has(c.parent_cat_id) ? c.parent_cat_id : 0]),
  );
  for (const node of catNodes.values()) parentAfter.set(node.cat_id, node.parent_cat_id);
  const levels = computeLevels(parentAfter);

  for (const [catId, level] of levels)
    if (level > MAX_LEVEL)
      throw new TreeError(
        `Catalog ${catId} would be ${level - TOP_LEVEL + 1} levels deep; catalogs nest at most ${MAX_LEVEL - TOP_LEVEL + 1} levels`,
      );

  // A node's level must match where its parent puts it. A node dropped inside a page arrives with
  // parent 0 (pages have no cat_id) but a level below the top, so this also refuses that.
  const parentLevel = (parent: number) => (parent === 0 ? TOP_LEVEL - 1 : levels.get(parent)!);
  for (const node of [...catNodes.values(), ...pageNodes.values()]) {
    if (node.level === 0) continue;
    const expected = parentLevel(node.parent_cat_id) + 1;
    if (node.level !== expected) {
      const what = node.cat_id > 0 ? `Catalog ${node.cat_id}` : `Page ${node.page_id}`;
      throw new TreeError(
        node.parent_cat_id === 0 && node.level > TOP_LEVEL
          ? `${what} cannot be placed inside a page`
          : `${what} is sent at level ${node.level} but its parent puts it at level ${expected}`,
      );
    }
  }

  const plan: TreePlan = { catalogs: [], pages: [] };
  for (const cat of current.catalogs) {
    const node = catNodes.get(cat.cat_id);
    const set: CatalogChange['set'] = {};
    const parent = parentAfter.get(cat.cat_id)!;
    if (parent !== cat.parent_cat_id) set.parent_cat_id = parent;
    const level = levels.get(cat.cat_id)!;
    if (level !== cat.level) set.level = level;
    if (node && node.s_number > 0 && node.s_number !== cat.s_number) set.s_number = node.s_number;
    if (node && node.cat_name !== '' && node.cat_name !== cat.cat_name)
      set.cat_name = node.cat_name;
    if (Object.keys(set).length) plan.catalogs.push({ cat_id: cat.cat_id, set });
  }
  for (const node of pageNodes.values()) {
    const page = pages.get(node.page_id)!;
    const set: PageChange['set'] = {};
    if (node.parent_cat_id !== page.cat_id) set.cat_id = node.parent_cat_id;
    if (node.s_number > 0 && node.s_number !== page.s_number) set.s_number = node.s_number;
    if (Object.keys(set).length) plan.pages.push({ page_id: node.page_id, set });
  }

  const restriction = options.restriction;
  if (restriction) {
    const allowed = new Set(restriction);
    const inside = (catId: number, parents: Map<number, number>) =>
      catId > 0 && allowed.has(topOf(catId, parents));
    for (const change of plan.catalogs) {
      const id = change.cat_id;
      if (allowed.has(id) && change.set.parent_cat_id !== undefined)
        throw new TreeError(
          `Catalog ${id} is the catalog you were given access to; it cannot be moved`,
          'forbidden',
        );
      if (!inside(id, parentBefore) || !inside(id, parentAfter))
        throw new TreeError(`Catalog ${id} is outside the catalogs you may edit`, 'forbidden');
    }
    for (const change of plan.pages) {
      const page = pages.get(change.page_id)!;
      const after = change.set.cat_id ?? page.cat_id;
      if (!inside(page.cat_id, parentBefore) || !inside(after, parentAfter))
        throw new TreeError(
          `Page ${change.page_id} is outside the catalogs you may edit`,
          'forbidden',
        );
    }
  }
  return plan;
}
