/**
 * `page_suggestion` (Quire): a proposed change to a page's text, made in the editor's Suggesting
 * mode, by a read-only member of an item in suggest mode, or by an AI agent whose token does not
 * write directly. It replaces `old_text` (found by its anchor: models/suggestions/anchor.ts) with
 * `new_text`: an insertion has no old text, a deletion no new text, a replacement both. The page's
 * own text never holds it until someone who may edit accepts it.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const SUGGESTION_OPEN = 0;
export const SUGGESTION_ACCEPTED = 1;
export const SUGGESTION_REJECTED = 2;

export interface PageSuggestionDoc {
  suggestion_id: number;
  page_id: number;
  item_id: number;
  /** The proposer (an agent's token owner). */
  uid: number;
  /** The name shown: the user's, or the agent's ("Claude via token 'docs-bot'"). */
  author_name: string;
  /** The AI token an agent proposed through (0: a person). */
  token_id: number;
  from: number;
  old_text: string;
  new_text: string;
  before: string;
  after: string;
  status: number;
  addtime: number;
  resolved_uid: number;
  resolved_time: number;
}

const pageSuggestionSchema = new Schema<PageSuggestionDoc>(
  {
    suggestion_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    uid: { type: Number, required: true },
    author_name: { type: String, default: '' },
    token_id: { type: Number, default: 0 },
    from: { type: Number, default: 0 },
    old_text: { type: String, default: '' },
    new_text: { type: String, default: '' },
    before: { type: String, default: '' },
    after: { type: String, default: '' },
    status: { type: Number, default: SUGGESTION_OPEN },
    addtime: { type: Number, required: true },
    resolved_uid: { type: Number, default: 0 },
    resolved_time: { type: Number, default: 0 },
  },
  { collection: 'page_suggestion', versionKey: false },
);

pageSuggestionSchema.index({ suggestion_id: 1 }, { unique: true });
// A page's open suggestions, oldest first.
pageSuggestionSchema.index({ page_id: 1, status: 1, suggestion_id: 1 });

export const PageSuggestion = defineModel<PageSuggestionDoc>(
  'PageSuggestion',
  pageSuggestionSchema,
);
