/**
 * The catalog manager's tree as plain data, and the pure rules on it: building it from the item's
 * menu, moving a dragged node, flattening it for `catalog/batUpdate`, filtering it by a search
 * keyword, the parent choices of the catalog form, and keeping the context menu on screen.
 *
 * Levels follow ShowDoc (spec 001 §9): top-level catalogs and root pages are level 2, each
 * catalog adds one. The server nests catalogs at most three levels (2–4) and refuses deeper trees;
 * the drag itself leaves that rule to the server, which is the one authority on the tree.
 */
import type { Menu, MenuCatalog, MenuPage } from '../reader/types';

export const TOP_LEVEL = 2;
/** Deepest catalog level the server accepts (three levels: 2, 3, 4). */
export const MAX_LEVEL = 4;
/** Spec 001 §9: the context menu keeps this far from the screen edges. */
export const CONTEXT_MENU_MARGIN = 5;

export type NodeKind = 'catalog' | 'page';

export interface ManagedNode {
  key: string;
  kind: NodeKind;
  id: number;
  name: string;
  /** Child catalogs first, then pages (as the reader's menu shows them); none for pages. */
  children: ManagedNode[];
}

/** One element of batUpdate's `cats` (reference pages §4.3). */
export interface TreeSaveEntry {
  cat_id: number;
  cat_name: string;
  parent_cat_id: number;
  page_id: number;
  page_cat_id: number;
  level: number;
  s_number: number;
}

export type DropWhere = 'before' | 'after' | 'inside';

export const catalogKey = (id: number | string) => `cat:${id}`;
export const pageKey = (id: number | string) => `page:${id}`;

function pageNode(page: MenuPage): ManagedNode {
  const id = Number(page.page_id);
  return { key: pageKey(id), kind: 'page', id, name: page.page_title, children: [] };
}

function catalogNode(cat: MenuCatalog): ManagedNode {
  const id = Number(cat.cat_id);
  return {
    key: catalogKey(id),
    kind: 'catalog',
    id,
    name: cat.cat_name,
    children: [...(cat.catalogs ?? []).map(catalogNode), ...cat.pages.map(pageNode)],
  };
}

/** The item menu of item/info as the manager's tree: root pages first, then the catalogs. */
export function treeFromMenu(menu: Menu): ManagedNode[] {
  return [...menu.pages.map(pageNode), ...menu.catalogs.map(catalogNode)];
}

/** Calls `visit` on every node, depth first, with its parent (null at the root) and its level. */
export function walk(
  nodes: ManagedNode[],
  visit: (node: ManagedNode, parent: ManagedNode | null, level: number) => void,
  parent: ManagedNode | null = null,
  level = TOP_LEVEL,
): void {
  for (const node of nodes) {
    visit(node, parent, level);
    walk(node.children, visit, node, level + 1);
  }
}

/** Every node's level by key. */
export function levelsByKey(nodes: ManagedNode[]): Map<string, number> {
  const levels = new Map<string, number>();
  walk(nodes, (node, _parent, level) => levels.set(node.key, level));
  return levels;
}

export function findNode(nodes: ManagedNode[], key: string): ManagedNode | null {
  let found: ManagedNode | null = null;
  walk(nodes, (node) => {
    if (!found && node.key === key) found = node;
  });
  return found;
}

/** Whether `key` is `ancestor` itself or lies below it. */
function isInside(ancestor: ManagedNode, key: string): boolean {
  return ancestor.key === key || findNode(ancestor.children, key) !== null;
}

/** The drop rule of spec 001 §4: nothing goes inside a page. */
export function canDrop(target: Pick<ManagedNode, 'kind'>, where: DropWhere): boolean {
  return where !== 'inside' || target.kind === 'catalog';
}

function without(nodes: ManagedNode[], key: string): ManagedNode[] {
  return nodes
    .filter((node) => node.key !== key)
    .map((node) => ({ ...node, children: without(node.children, key) }));
}

function insert(
  nodes: ManagedNode[],
  moved: ManagedNode,
  targetKey: string,
  where: DropWhere,
): { nodes: ManagedNode[]; done: boolean } {
  const index = nodes.findIndex((node) => node.key === targetKey);
  if (index >= 0) {
    const target = nodes[index];
    if (where === 'inside')
      return {
        nodes: nodes.map((node, i) =>
          // First child: where the tree's drop indicator shows it.
          i === index ? { ...target, children: [moved, ...target.children] } : node,
        ),
        done: true,
      };
    const at = where === 'before' ? index : index + 1;
    return { nodes: [...nodes.slice(0, at), moved, ...nodes.slice(at)], done: true };
  }
  let done = false;
  const next = nodes.map((node) => {
    if (done || !node.children.length) return node;
    const result = insert(node.children, moved, targetKey, where);
    done = result.done;
    return result.done ? { ...node, children: result.nodes } : node;
  });
  return { nodes: next, done };
}

/**
 * The tree after dropping `dragKey` before, after or inside `targetKey`; null when the drop is not
 * allowed (inside a page, into the dragged catalog's own subtree, or onto itself).
 */
export function moveNode(
  nodes: ManagedNode[],
  dragKey: string,
  targetKey: string,
  where: DropWhere,
): ManagedNode[] | null {
  const dragged = findNode(nodes, dragKey);
  const target = findNode(nodes, targetKey);
  if (!dragged || !target || !canDrop(target, where) || isInside(dragged, targetKey)) return null;
  const result = insert(without(nodes, dragKey), dragged, targetKey, where);
  return result.done ? result.nodes : null;
}

/**
 * The whole tree as batUpdate's `cats`, the way ShowDoc's client flattens it: parent 0 and level 2
 * at the top, children one level down, `s_number` the 1-based position among siblings; pages
 * carry their title as `cat_name`, `cat_id` 0 and their catalog as `parent_cat_id`.
 */
export function flattenForSave(nodes: ManagedNode[]): TreeSaveEntry[] {
  const out: TreeSaveEntry[] = [];
  const visit = (list: ManagedNode[], parentCatId: number, level: number) => {
    list.forEach((node, index) => {
      const isPage = node.kind === 'page';
      out.push({
        cat_id: isPage ? 0 : node.id,
        cat_name: node.name,
        parent_cat_id: parentCatId,
        page_id: isPage ? node.id : 0,
        page_cat_id: isPage ? parentCatId : 0,
        level,
        s_number: index + 1,
      });
      if (!isPage) visit(node.children, node.id, level + 1);
    });
  };
  visit(nodes, 0, TOP_LEVEL);
  return out;
}

/**
 * The nodes whose name contains `keyword` (case-insensitive), with the catalogs on the way to them;
 * a matching catalog keeps its whole content.
 */
export function filterTree(nodes: ManagedNode[], keyword: string): ManagedNode[] {
  const word = keyword.trim().toLowerCase();
  if (!word) return nodes;
  const out: ManagedNode[] = [];
  for (const node of nodes) {
    if (node.name.toLowerCase().includes(word)) out.push(node);
    else {
      const children = filterTree(node.children, word);
      if (children.length) out.push({ ...node, children });
    }
  }
  return out;
}

/** Keys of every catalog in the tree (to expand them all). */
export function catalogKeys(nodes: ManagedNode[]): string[] {
  const keys: string[] = [];
  walk(nodes, (node) => {
    if (node.kind === 'catalog') keys.push(node.key);
  });
  return keys;
}

/** Levels of catalogs below `node` inside its own subtree (0 = no child catalogs). */
function catalogHeight(node: ManagedNode): number {
  let best = 0;
  for (const child of node.children)
    if (child.kind === 'catalog') best = Math.max(best, 1 + catalogHeight(child));
  return best;
}

export interface ParentChoice {
  /** 0 = the top level. */
  catId: number;
  /** 'Top/Child' (the top level's label is the caller's). */
  path: string;
  level: number;
}

/**
 * Where a catalog may go in the catalog form: the catalogs of the tree (as slash paths) under
 * which `moving` (absent for a new catalog) still fits within the three levels, leaving out
 * `moving` itself and its own subtree. The top level is not listed: the form always offers it.
 */
export function parentChoices(nodes: ManagedNode[], moving?: ManagedNode | null): ParentChoice[] {
  const height = moving ? catalogHeight(moving) : 0;
  const out: ParentChoice[] = [];
  const visit = (list: ManagedNode[], prefix: string, level: number) => {
    for (const node of list) {
      if (node.kind !== 'catalog' || node.key === moving?.key) continue;
      const path = prefix ? `${prefix}/${node.name}` : node.name;
      if (level + 1 + height <= MAX_LEVEL) out.push({ catId: node.id, path, level });
      visit(node.children, path, level + 1);
    }
  };
  visit(nodes, '', TOP_LEVEL);
  return out;
}

/** The catalog that holds `key` (0 at the top level). */
export function parentCatalogOf(nodes: ManagedNode[], key: string): number {
  let parentId = 0;
  walk(nodes, (node, parent) => {
    if (node.key === key) parentId = parent?.id ?? 0;
  });
  return parentId;
}

/**
 * Top-left corner for a menu of `size` opened at the pointer: at the pointer when it fits, else
 * pushed back so that it stays `margin` px inside the viewport (spec 001 §9).
 */
export function placeWithin(
  pointer: { x: number; y: number },
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  margin = CONTEXT_MENU_MARGIN,
): { left: number; top: number } {
  const clamp = (value: number, length: number, room: number) =>
    Math.max(margin, Math.min(value, room - length - margin));
  return {
    left: clamp(pointer.x, size.width, viewport.width),
    top: clamp(pointer.y, size.height, viewport.height),
  };
}
