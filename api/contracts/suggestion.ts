/**
 * `suggestion/*` (Quire, suggest mode — issue #41): a page's proposed changes, proposed by those
 * who may suggest and accepted or rejected by those who may edit.
 */
import { z } from 'zod';
import { action, id, list, raw, str } from './coerce';

export const Suggestion = z.object({
  suggestion_id: z.number(),
  page_id: z.number(),
  uid: z.number(),
  author_name: z.string(),
  /** `user:<uid>` or `token:<id>`: accept/reject all of one author by it. */
  author_key: z.string(),
  /** 1 when an AI agent proposed it. */
  is_agent: z.number(),
  /** Where `old_text` sat in the saved text when proposed (a hint: the context finds it). */
  from: z.number(),
  old_text: z.string(),
  new_text: z.string(),
  before: z.string(),
  after: z.string(),
  addtime: z.number(),
});
export type SuggestionShape = z.infer<typeof Suggestion>;

const reviewed = z.object({
  accepted: z.array(z.number()),
  rejected: z.array(z.number()),
  stale: z.array(z.number()),
});

const review = { page_id: id(), suggestion_ids: list(), author_key: str() };

export const suggestionContract = {
  list: action(
    { page_id: id() },
    z.object({
      suggestions: z.array(Suggestion),
      can_review: z.boolean(),
      can_suggest: z.boolean(),
    }),
  ),
  /**
   * `changes`: a JSON array (or form array) of `{from, old_text, new_text, before, after}` — the
   * replaced range's offset and text, the new text, and up to 32 characters around it.
   */
  propose: action(
    { page_id: id(), changes: raw() },
    z.object({ suggestion_ids: z.array(z.number()) }),
  ),
  accept: action(review, reviewed),
  reject: action(review, reviewed),
};
