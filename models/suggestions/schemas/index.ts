export {
  PageSuggestion,
  type PageSuggestionDoc,
  SUGGESTION_ACCEPTED,
  SUGGESTION_OPEN,
  SUGGESTION_REJECTED,
} from './pageSuggestion';
