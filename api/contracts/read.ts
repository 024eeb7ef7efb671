/**
 * `read` (Quire only, no ShowDoc counterpart): read markers — which version of each page a
 * logged-in user last read — and what changed since (models/readMarkers).
 */
import { z } from 'zod';
import { action, id, int, list } from './coerce';

export const ChangedBlock = z.object({
  /** The block's first source line (0-based); the reader's rendered block carries it. */
  line: z.number(),
  kind: z.enum(['added', 'changed']),
});

export const PageChanges = z.object({
  changed: z.boolean(),
  since: z.number(),
  page_history_id: z.number(),
  addtime: z.number(),
  author_uid: z.number(),
  author_username: z.string(),
  authors: z.array(z.object({ uid: z.number(), username: z.string() })),
  blocks: z.array(ChangedBlock),
  removed: z.number(),
});

export const readContract = {
  /** Pages read (after a few seconds on screen), several per call; `addtimes` in the same order. */
  mark: action(
    { item_id: id(), page_ids: list(), addtimes: list() },
    z.object({ marked: z.array(z.number()) }),
  ),
  markAll: action({ item_id: id() }, z.object({ marked: z.number() })),
  /** The item list's "N pages changed": items with changed pages (asked after item/myList). */
  itemCounts: action({}, z.array(z.object({ item_id: z.number(), changed_pages: z.number() }))),
  /** Since the reader's marker, or since `since` (the addtime of the version they saw). */
  changes: action({ page_id: id(), since: int() }, PageChanges),
};
