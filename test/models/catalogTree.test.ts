/**
 * The pure whole-tree validation behind catalog/batUpdate: what a drag-and-drop save may change,
 * what it must refuse (cycles, depth, foreign ids, nodes inside pages), and that the plan touches
 * only the rows that really move.
 */
import { describe, expect, test } from '@jest/globals';
import {
  computeLevels,
  parseTreeNodes,
  planTreeUpdate,
  subtreeHeight,
  subtreeOf,
  topOf,
  TreeError,
  type TreeCatalog,
  type TreeNode,
  type TreePage,
} from '../../models/catalogs/catalogTree';

// A(1) ─ B(2) ─ C(3)      D(4)      root page 10; page 11 in B; page 12 in C
const catalogs: TreeCatalog[] = [
  { cat_id: 1, cat_name: 'A', parent_cat_id: 0, level: 2, s_number: 1 },
  { cat_id: 2, cat_name: 'B', parent_cat_id: 1, level: 3, s_number: 1 },
  { cat_id: 3, cat_name: 'C', parent_cat_id: 2, level: 4, s_number: 1 },
  { cat_id: 4, cat_name: 'D', parent_cat_id: 0, level: 2, s_number: 2 },
];
const pages: TreePage[] = [
  { page_id: 10, cat_id: 0, s_number: 1 },
  { page_id: 11, cat_id: 2, s_number: 1 },
  { page_id: 12, cat_id: 3, s_number: 1 },
];
const current = { catalogs, pages };

function cat(
  cat_id: number,
  parent_cat_id: number,
  level: number,
  s_number: number,
  cat_name = '',
): TreeNode {
  return { cat_id, page_id: 0, cat_name, parent_cat_id, level, s_number };
}
function page(page_id: number, parent_cat_id: number, level: number, s_number: number): TreeNode {
  return { cat_id: 0, page_id, cat_name: 'title', parent_cat_id, level, s_number };
}
/** The tree exactly as it is now, flattened the way the web client sends it. */
const unchanged = (): TreeNode[] => [
  cat(1, 0, 2, 1, 'A'),
  cat(2, 1, 3, 1, 'B'),
  page(11, 2, 4, 1),
  cat(3, 2, 4, 1, 'C'),
  page(12, 3, 5, 1),
  cat(4, 0, 2, 2, 'D'),
  page(10, 0, 2, 1),
];

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TreeError);
    return (error as Error).message;
  }
  throw new Error('expected a TreeError');
}

describe('parseTreeNodes', () => {
  test('accepts the client list with numbers sent as strings and trims names', () => {
    expect(
      parseTreeNodes([
        {
          cat_id: '5',
          cat_name: ' X ',
          page_id: 0,
          parent_cat_id: '0',
          page_cat_id: 0,
          level: 2,
          s_number: '3',
        },
      ]),
    ).toEqual([{ cat_id: 5, page_id: 0, cat_name: 'X', parent_cat_id: 0, level: 2, s_number: 3 }]);
  });

  test('refuses a non-array, nested objects, negative and fractional numbers', () => {
    expect(refusal(() => parseTreeNodes({ cat_id: 1 }))).toMatch(/array/);
    expect(refusal(() => parseTreeNodes([[1]]))).toMatch(/object/);
    expect(refusal(() => parseTreeNodes([{ cat_id: { $gt: 0 } }]))).toMatch(/cat_id/);
    expect(refusal(() => parseTreeNodes([{ cat_id: -1 }]))).toMatch(/non-negative/);
    expect(refusal(() => parseTreeNodes([{ cat_id: 1.5 }]))).toMatch(/cat_id/);
    expect(refusal(() => parseTreeNodes([{ cat_id: 1, cat_name: ['x'] }]))).toMatch(/text/);
  });
});

describe('tree helpers', () => {
  const parents = new Map(catalogs.map((c) => [c.cat_id, c.parent_cat_id]));

  test('computeLevels derives 2/3/4 from parent links and treats a dangling parent as the root', () => {
    expect([...computeLevels(parents)]).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 2],
    ]);
    expect(computeLevels(new Map([[7, 99]])).get(7)).toBe(2);
  });

  test('computeLevels refuses a cycle', () => {
    expect(
      refusal(() =>
        computeLevels(
          new Map([
            [1, 2],
            [2, 1],
          ]),
        ),
      ),
    ).toMatch(/cycle/);
  });

  test('topOf, subtreeOf and subtreeHeight walk the tree', () => {
    expect(topOf(3, parents)).toBe(1);
    expect(topOf(4, parents)).toBe(4);
    expect(topOf(0, parents)).toBe(0);
    expect(subtreeOf(1, catalogs).sort()).toEqual([1, 2, 3]);
    expect(subtreeHeight(1, catalogs)).toBe(2);
    expect(subtreeHeight(3, catalogs)).toBe(0);
  });
});

describe('planTreeUpdate', () => {
  test('the unchanged tree produces an empty plan', () => {
    expect(planTreeUpdate(current, unchanged())).toEqual({ catalogs: [], pages: [] });
  });

  test('swapping two top-level catalogs rewrites only their two order numbers', () => {
    const nodes = unchanged().map((n) =>
      n.cat_id === 1 ? { ...n, s_number: 2 } : n.cat_id === 4 ? { ...n, s_number: 1 } : n,
    );
    expect(planTreeUpdate(current, nodes)).toEqual({
      catalogs: [
        { cat_id: 1, set: { s_number: 2 } },
        { cat_id: 4, set: { s_number: 1 } },
      ],
      pages: [],
    });
  });

  test('moving a catalog re-parents it and recomputes the levels of its whole subtree', () => {
    // B (with C below it) goes under D: B stays level 3, C stays 4. Then B to the top: B 2, C 3.
    const toTop = planTreeUpdate(current, [cat(2, 0, 2, 3)]);
    expect(toTop.catalogs).toEqual([
      { cat_id: 2, set: { parent_cat_id: 0, level: 2, s_number: 3 } },
      { cat_id: 3, set: { level: 3 } },
    ]);
  });

  test('moving a page into a catalog and renaming a catalog', () => {
    const plan = planTreeUpdate(current, [page(10, 4, 3, 1), cat(4, 0, 2, 2, 'Renamed')]);
    expect(plan).toEqual({
      catalogs: [{ cat_id: 4, set: { cat_name: 'Renamed' } }],
      pages: [{ page_id: 10, set: { cat_id: 4 } }],
    });
  });

  test('a page node never renames the page (its cat_name carries the title)', () => {
    expect(planTreeUpdate(current, [page(11, 2, 4, 1)]).pages).toEqual([]);
  });

  test('refuses a cycle: a catalog under its own descendant', () => {
    expect(refusal(() => planTreeUpdate(current, [cat(1, 3, 5, 1)]))).toMatch(/cycle/);
    expect(refusal(() => planTreeUpdate(current, [cat(1, 1, 3, 1)]))).toMatch(/cycle/);
  });

  test('refuses a fourth level, also when it comes from moving a deep subtree', () => {
    expect(refusal(() => planTreeUpdate(current, [cat(4, 3, 5, 1)]))).toMatch(/at most 3 levels/);
    // A (3 levels) under D would make C level 5.
    expect(refusal(() => planTreeUpdate(current, [cat(1, 4, 3, 1)]))).toMatch(/at most 3 levels/);
  });

  test('refuses ids of another item, a foreign parent, duplicates and empty nodes', () => {
    expect(refusal(() => planTreeUpdate(current, [cat(99, 0, 2, 1)]))).toMatch(
      /Catalog 99 does not belong/,
    );
    expect(refusal(() => planTreeUpdate(current, [page(99, 0, 2, 1)]))).toMatch(
      /Page 99 does not belong/,
    );
    expect(refusal(() => planTreeUpdate(current, [page(10, 98, 3, 1)]))).toMatch(
      /parent catalog 98/,
    );
    expect(refusal(() => planTreeUpdate(current, [cat(4, 0, 2, 1), cat(4, 0, 2, 2)]))).toMatch(
      /twice/,
    );
    expect(refusal(() => planTreeUpdate(current, [page(10, 0, 2, 1), page(10, 0, 2, 2)]))).toMatch(
      /twice/,
    );
    expect(refusal(() => planTreeUpdate(current, [{ ...cat(4, 0, 2, 1), page_id: 10 }]))).toMatch(
      /both/,
    );
    expect(refusal(() => planTreeUpdate(current, [cat(0, 0, 2, 1)]))).toMatch(/neither/);
  });

  test('refuses a node dropped inside a page (parent 0 below the top level)', () => {
    expect(refusal(() => planTreeUpdate(current, [page(11, 0, 3, 1)]))).toMatch(/inside a page/);
    expect(refusal(() => planTreeUpdate(current, [cat(4, 0, 3, 1)]))).toMatch(/inside a page/);
  });

  test('refuses levels that contradict the parents', () => {
    expect(refusal(() => planTreeUpdate(current, [cat(4, 1, 4, 1)]))).toMatch(
      /level 4 but its parent puts it at level 3/,
    );
  });

  test('refuses an overlong catalog name', () => {
    expect(refusal(() => planTreeUpdate(current, [cat(4, 0, 2, 2, 'x'.repeat(201))]))).toMatch(
      /at most 200/,
    );
  });

  test('heals dangling parent links of migrated rows to the root', () => {
    const broken = {
      catalogs: [
        ...catalogs,
        { cat_id: 5, cat_name: 'E', parent_cat_id: 77, level: 3, s_number: 1 },
      ],
      pages,
    };
    expect(planTreeUpdate(broken, []).catalogs).toEqual([
      { cat_id: 5, set: { parent_cat_id: 0, level: 2 } },
    ]);
  });

  describe('a member restricted to catalog A', () => {
    const restriction = [1];

    test('may reorder and move things inside A', () => {
      const plan = planTreeUpdate(current, [page(11, 1, 3, 1), cat(3, 1, 3, 2)], { restriction });
      expect(plan.pages).toEqual([{ page_id: 11, set: { cat_id: 1 } }]);
      expect(plan.catalogs).toEqual([
        { cat_id: 3, set: { parent_cat_id: 1, level: 3, s_number: 2 } },
      ]);
    });

    test('may not move things out of A, into A from outside, touch D or root pages, or move A itself', () => {
      expect(refusal(() => planTreeUpdate(current, [cat(3, 4, 3, 1)], { restriction }))).toMatch(
        /outside/,
      );
      expect(refusal(() => planTreeUpdate(current, [page(10, 1, 3, 1)], { restriction }))).toMatch(
        /outside/,
      );
      expect(refusal(() => planTreeUpdate(current, [cat(4, 0, 2, 5)], { restriction }))).toMatch(
        /outside/,
      );
      expect(refusal(() => planTreeUpdate(current, [page(11, 0, 2, 1)], { restriction }))).toMatch(
        /outside/,
      );
      expect(refusal(() => planTreeUpdate(current, [cat(1, 4, 3, 1)], { restriction }))).toMatch(
        /cannot be moved|at most/,
      );
    });

    test('restriction refusals are marked forbidden, broken trees invalid', () => {
      const kind = (fn: () => unknown) => {
        try {
          fn();
        } catch (error) {
          return (error as TreeError).kind;
        }
        return 'none';
      };
      expect(kind(() => planTreeUpdate(current, [cat(4, 0, 2, 5)], { restriction }))).toBe(
        'forbidden',
      );
      expect(kind(() => planTreeUpdate(current, [cat(1, 3, 5, 1)], { restriction }))).toBe(
        'invalid',
      );
    });

    test('unchanged nodes outside A in the request are fine (only changes are checked)', () => {
      expect(planTreeUpdate(current, unchanged(), { restriction })).toEqual({
        catalogs: [],
        pages: [],
      });
    });
  });
});
