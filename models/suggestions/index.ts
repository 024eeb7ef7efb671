/** Suggest mode: proposed changes to a page's text, reviewed by its editors (issue #41). */
export { ANCHOR_CONTEXT, type Anchor, anchorAt, locateAnchor } from './anchor';
export { suggestionsFromDiff } from './fromDiff';
export {
  agentMustSuggest,
  authorKeyOf,
  countOpenSuggestions,
  listSuggestions,
  MAX_CHANGES_PER_PROPOSAL,
  proposeSuggestions,
  type ProposedChange,
  type ReviewInput,
  type ReviewResult,
  reviewSuggestions,
  type SuggestionAgent,
  type SuggestionList,
} from './suggestions';
export type { PageSuggestionDoc } from './schemas';
