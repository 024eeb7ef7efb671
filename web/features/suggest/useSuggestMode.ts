/**
 * The editor's Suggesting mode: the switch, the CodeMirror extension's controller (which sends
 * each finished change as a proposal) and the page's open suggestions shown in the text.
 * `forced`: the user may only suggest (a read-only member of an item in suggest mode).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';
import { proposeChange } from './api';
import { changeOf } from './locate';
import { showSuggestions, suggestExtension, type SuggestController } from './suggestExtension';
import { useSuggestions } from './useSuggestions';

export function useSuggestMode(pageId: number, forced: boolean) {
  const { t } = useTranslation();
  const { message } = useAppFeedback();
  const [chosen, setChosen] = useState(false);
  const suggesting = forced || chosen;
  const suggestingRef = useRef(suggesting);
  suggestingRef.current = suggesting;
  const { list, reload } = useSuggestions(pageId, true);
  const latest = useRef({ list, reload, message, t });
  latest.current = { list, reload, message, t };

  const controller = useMemo<SuggestController>(() => {
    const self: SuggestController = {
      view: null,
      suggesting: () => suggestingRef.current,
      async propose(change, text) {
        try {
          await proposeChange(pageId, changeOf(text, change.from, change.to, change.insert));
        } catch (error) {
          void latest.current.message.error((error as Error).message);
        }
        // Shown from the list before the pending change is taken away: no gap in between.
        const fresh = await latest.current.reload();
        if (fresh && self.view) showSuggestions(self.view, fresh.suggestions);
      },
      attached(view) {
        const current = latest.current.list;
        if (current) showSuggestions(view, current.suggestions);
      },
    };
    return self;
  }, [pageId]);
  const { extension, flushNow } = useMemo(() => suggestExtension(controller), [controller]);

  useEffect(() => {
    if (list && controller.view) showSuggestions(controller.view, list.suggestions);
  }, [list, controller]);

  const setSuggesting = (on: boolean) => {
    if (!on) flushNow();
    setChosen(on);
  };

  return {
    extension,
    suggesting,
    setSuggesting,
    list,
    reload,
    canSuggest: !!list?.can_suggest,
  };
}
