/**
 * The catalog manager's pure tree rules (web/features/catalog/tree.ts): the menu as a tree,
 * drops (nothing inside a page, no catalog into its own subtree), the batUpdate payload (levels
 * from 2, positions among siblings), the name filter, the catalog form's parent choices, and
 * keeping the context menu 5 px inside the screen.
 */
import { describe, expect, test } from '@jest/globals';
import type { Menu } from '../../web/features/reader/types';
import {
  canDrop,
  catalogKeys,
  filterTree,
  findNode,
  flattenForSave,
  levelsByKey,
  moveNode,
  parentCatalogOf,
  parentChoices,
  placeWithin,
  treeFromMenu,
  type ManagedNode,
} from '../../web/features/catalog/tree';

const page = (id: number, title: string, catId = 0) => ({
  page_id: String(id),
  author_uid: '1',
  cat_id: String(catId),
  page_title: title,
  addtime: '0',
});

// Root page Intro; catalogs Guide (> Setup (> Deep), page Start) and Reference (page API).
const MENU: Menu = {
  pages: [page(1, 'Intro')],
  catalogs: [
    {
      cat_id: '10',
      cat_name: 'Guide',
      parent_cat_id: '0',
      level: '2',
      pages: [page(2, 'Start', 10)],
      catalogs: [
        {
          cat_id: '11',
          cat_name: 'Setup',
          parent_cat_id: '10',
          level: '3',
          pages: [],
          catalogs: [
            {
              cat_id: '12',
              cat_name: 'Deep',
              parent_cat_id: '11',
              level: '4',
              pages: [],
              catalogs: [],
            },
          ],
        },
      ],
    },
    {
      cat_id: '20',
      cat_name: 'Reference',
      parent_cat_id: '0',
      level: '2',
      pages: [page(3, 'API', 20)],
    },
  ],
};

const names = (nodes: ManagedNode[]): unknown =>
  nodes.map((n) => (n.children.length ? { [n.name]: names(n.children) } : n.name));

describe('treeFromMenu', () => {
  test('root pages first, then catalogs; inside a catalog its catalogs, then its pages', () => {
    const tree = treeFromMenu(MENU);
    expect(names(tree)).toEqual([
      'Intro',
      { Guide: [{ Setup: ['Deep'] }, 'Start'] },
      { Reference: ['API'] },
    ]);
    expect(tree[0]).toMatchObject({ key: 'page:1', kind: 'page', id: 1 });
    expect(tree[1]).toMatchObject({ key: 'cat:10', kind: 'catalog', id: 10 });
    expect(catalogKeys(tree)).toEqual(['cat:10', 'cat:11', 'cat:12', 'cat:20']);
    // Levels start at 2 (spec 001 §9).
    const levels = levelsByKey(tree);
    expect([levels.get('page:1'), levels.get('cat:10'), levels.get('page:2')]).toEqual([2, 2, 3]);
    expect(levels.get('cat:12')).toBe(4);
  });
});

describe('moveNode', () => {
  const tree = treeFromMenu(MENU);

  test('reorders siblings (before / after) and re-parents (inside, as the first child)', () => {
    expect(names(moveNode(tree, 'cat:20', 'cat:10', 'before')!)).toEqual([
      'Intro',
      { Reference: ['API'] },
      { Guide: [{ Setup: ['Deep'] }, 'Start'] },
    ]);
    expect(names(moveNode(tree, 'page:1', 'cat:20', 'after')!)).toEqual([
      { Guide: [{ Setup: ['Deep'] }, 'Start'] },
      { Reference: ['API'] },
      'Intro',
    ]);
    expect(names(moveNode(tree, 'cat:20', 'cat:10', 'inside')!)).toEqual([
      'Intro',
      { Guide: [{ Reference: ['API'] }, { Setup: ['Deep'] }, 'Start'] },
    ]);
    expect(names(moveNode(tree, 'page:3', 'page:2', 'after')!)).toEqual([
      'Intro',
      { Guide: [{ Setup: ['Deep'] }, 'Start', 'API'] },
      'Reference',
    ]);
    // The input is left alone.
    expect(names(tree)).toEqual(names(treeFromMenu(MENU)));
  });

  test('nothing goes inside a page, and no catalog into itself or below itself', () => {
    expect(canDrop({ kind: 'page' }, 'inside')).toBe(false);
    expect(canDrop({ kind: 'page' }, 'after')).toBe(true);
    expect(canDrop({ kind: 'catalog' }, 'inside')).toBe(true);
    expect(moveNode(tree, 'page:3', 'page:2', 'inside')).toBeNull();
    expect(moveNode(tree, 'cat:20', 'page:1', 'inside')).toBeNull();
    expect(moveNode(tree, 'cat:10', 'cat:12', 'inside')).toBeNull();
    expect(moveNode(tree, 'cat:10', 'cat:11', 'after')).toBeNull();
    expect(moveNode(tree, 'cat:10', 'cat:10', 'after')).toBeNull();
    expect(moveNode(tree, 'cat:99', 'cat:10', 'after')).toBeNull();
  });
});

describe('flattenForSave', () => {
  test('levels start at 2, positions are 1-based among siblings, pages carry their catalog', () => {
    const entries = flattenForSave(treeFromMenu(MENU));
    expect(entries).toEqual([
      {
        cat_id: 0,
        cat_name: 'Intro',
        parent_cat_id: 0,
        page_id: 1,
        page_cat_id: 0,
        level: 2,
        s_number: 1,
      },
      {
        cat_id: 10,
        cat_name: 'Guide',
        parent_cat_id: 0,
        page_id: 0,
        page_cat_id: 0,
        level: 2,
        s_number: 2,
      },
      {
        cat_id: 11,
        cat_name: 'Setup',
        parent_cat_id: 10,
        page_id: 0,
        page_cat_id: 0,
        level: 3,
        s_number: 1,
      },
      {
        cat_id: 12,
        cat_name: 'Deep',
        parent_cat_id: 11,
        page_id: 0,
        page_cat_id: 0,
        level: 4,
        s_number: 1,
      },
      {
        cat_id: 0,
        cat_name: 'Start',
        parent_cat_id: 10,
        page_id: 2,
        page_cat_id: 10,
        level: 3,
        s_number: 2,
      },
      {
        cat_id: 20,
        cat_name: 'Reference',
        parent_cat_id: 0,
        page_id: 0,
        page_cat_id: 0,
        level: 2,
        s_number: 3,
      },
      {
        cat_id: 0,
        cat_name: 'API',
        parent_cat_id: 20,
        page_id: 3,
        page_cat_id: 20,
        level: 3,
        s_number: 1,
      },
    ]);
  });
});

describe('filterTree', () => {
  const tree = treeFromMenu(MENU);
  test('keeps matches with the catalogs above them; a matching catalog keeps its content', () => {
    expect(names(filterTree(tree, 'deep'))).toEqual([{ Guide: [{ Setup: ['Deep'] }] }]);
    expect(names(filterTree(tree, ' REFER '))).toEqual([{ Reference: ['API'] }]);
    expect(names(filterTree(tree, 'start'))).toEqual([{ Guide: ['Start'] }]);
    expect(filterTree(tree, 'nothing like it')).toEqual([]);
    expect(filterTree(tree, '  ')).toBe(tree);
  });
});

describe('parentChoices and parentCatalogOf', () => {
  const tree = treeFromMenu(MENU);
  test('a new catalog may go under any catalog above the third level', () => {
    expect(parentChoices(tree).map((c) => c.path)).toEqual(['Guide', 'Guide/Setup', 'Reference']);
  });
  test('a moved catalog never goes under itself and must still fit in three levels', () => {
    const setup = findNode(tree, 'cat:11');
    // Setup has one level below it: only top-level catalogs can take it.
    expect(parentChoices(tree, setup).map((c) => c.path)).toEqual(['Guide', 'Reference']);
    const guide = findNode(tree, 'cat:10');
    expect(parentChoices(tree, guide)).toEqual([]);
  });
  test('the catalog holding a node', () => {
    expect(parentCatalogOf(tree, 'cat:12')).toBe(11);
    expect(parentCatalogOf(tree, 'page:2')).toBe(10);
    expect(parentCatalogOf(tree, 'cat:10')).toBe(0);
  });
});

describe('placeWithin', () => {
  const viewport = { width: 1000, height: 600 };
  const size = { width: 160, height: 200 };
  test('at the pointer when the menu fits', () => {
    expect(placeWithin({ x: 300, y: 200 }, size, viewport)).toEqual({ left: 300, top: 200 });
  });
  test('pushed back to 5 px from the edge it would cross', () => {
    expect(placeWithin({ x: 990, y: 590 }, size, viewport)).toEqual({
      left: 1000 - 160 - 5,
      top: 600 - 200 - 5,
    });
    expect(placeWithin({ x: 1, y: 2 }, size, viewport)).toEqual({ left: 5, top: 5 });
  });
});
