/**
 * `suggestion/*` (Quire's suggest mode, issue #41): list a page's open suggestions, propose
 * changes, accept or reject them (by id, or all of one author). Rules in models/suggestions.
 */
import {
  authorKeyOf,
  listSuggestions,
  type PageSuggestionDoc,
  type ProposedChange,
  proposeSuggestions,
  reviewSuggestions,
} from '../../models/suggestions';
import { errors } from '../../models/platform';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { type SuggestionShape, suggestionContract } from '../contracts';
import { type ActionContext, defineController } from '../registry';

function suggestionRow(s: PageSuggestionDoc): SuggestionShape {
  return {
    suggestion_id: s.suggestion_id,
    page_id: s.page_id,
    uid: s.uid,
    author_name: s.author_name,
    author_key: authorKeyOf(s),
    is_agent: s.token_id > 0 ? 1 : 0,
    from: s.from,
    old_text: s.old_text,
    new_text: s.new_text,
    before: s.before,
    after: s.after,
    addtime: s.addtime,
  };
}

const text = (value: unknown): string | null =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : null;

/** `changes` as JSON text or a form array of objects; anything else is refused whole. */
function parseChanges(raw: unknown): ProposedChange[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw errors.badParam('changes');
    }
  }
  if (!Array.isArray(value)) throw errors.badParam('changes');
  return value.map((entry: unknown) => {
    if (!entry || typeof entry !== 'object') throw errors.badParam('changes');
    const e = entry as Record<string, unknown>;
    const from = Number(e.from);
    const fields = [text(e.old_text), text(e.new_text), text(e.before), text(e.after)];
    if (!Number.isSafeInteger(from) || fields.some((f) => f === null))
      throw errors.badParam('changes');
    const [oldText, newText, before, after] = fields as string[];
    return { from, old_text: oldText, new_text: newText, before, after };
  });
}

function reviewIds(raw: string[]): number[] {
  return raw.map((value) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n <= 0) throw errors.badParam('suggestion_ids');
    return n;
  });
}

/** suggestion/accept and suggestion/reject: the same input, one verdict each. */
async function review(
  ctx: ActionContext<{ page_id: number; suggestion_ids: string[]; author_key: string }>,
  accept: boolean,
) {
  const { actor } = await requireLogin(ctx);
  return reviewSuggestions(actor, {
    pageId: ctx.input.page_id,
    accept,
    ids: reviewIds(ctx.input.suggestion_ids),
    authorKey: ctx.input.author_key.trim() || undefined,
  });
}

export const suggestionController = defineController('suggestion', suggestionContract, {
  async list(ctx) {
    const { actor } = await optionalLogin(ctx);
    const list = await listSuggestions(actor, {
      pageId: ctx.input.page_id,
      itemPassword: itemPassword(ctx),
    });
    return {
      suggestions: list.suggestions.map(suggestionRow),
      can_review: list.canReview,
      can_suggest: list.canSuggest,
    };
  },

  async propose(ctx) {
    const { actor } = await requireLogin(ctx);
    const ids = await proposeSuggestions(actor, {
      pageId: ctx.input.page_id,
      changes: parseChanges(ctx.input.changes),
      itemPassword: itemPassword(ctx),
    });
    return { suggestion_ids: ids };
  },

  accept: (ctx) => review(ctx, true),

  reject: (ctx) => review(ctx, false),
});
