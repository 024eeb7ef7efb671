/**
 * Suggest mode as the editor screen wires it: the mode (useSuggestMode), the switch for the tool
 * row and the side list of the page's open suggestions, both null where they do not apply (a new
 * page, or nobody suggesting and nothing to review).
 */
import { SuggestPanel, SuggestSwitch } from './SuggestPanel';
import { useSuggestMode } from './useSuggestMode';

export function useEditorSuggest(pageId: number, suggestOnly: boolean) {
  const suggest = useSuggestMode(pageId, suggestOnly);
  const suggesting = !!pageId && suggest.suggesting;
  const toolbarSwitch =
    pageId && suggest.canSuggest ? (
      <SuggestSwitch
        suggesting={suggest.suggesting}
        forced={suggestOnly}
        onChange={suggest.setSuggesting}
      />
    ) : null;
  const sidePanel =
    pageId && (suggesting || !!suggest.list?.suggestions.length) ? (
      <SuggestPanel pageId={pageId} list={suggest.list} onReviewed={suggest.reload} />
    ) : null;
  return {
    suggesting,
    extension: pageId ? suggest.extension : undefined,
    toolbarSwitch,
    sidePanel,
  };
}
