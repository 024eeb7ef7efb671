/**
 * The live preview (spec 001 §9): follows the text 250 ms after the last change, and turns itself
 * off once (per page and browser session, with a notice) when the text grows past PREVIEW_LIMIT.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';

/** Live preview turns itself off above this many characters (spec §9). */
export const PREVIEW_LIMIT = 4000;

const previewWarnedKey = (itemId: number, pageId: number) =>
  `quire.previewWarned.${itemId}.${pageId || 'new'}`;

export function usePreview(itemId: number, pageId: number, start: string) {
  const { t } = useTranslation();
  const { message } = useAppFeedback();
  const [text, setText] = useState(start);
  const [previewText, setPreviewText] = useState(start);
  const [previewOn, setPreviewOn] = useState(true);
  const timer = useRef(0);
  const warned = useRef(sessionStorage.getItem(previewWarnedKey(itemId, pageId)) === '1');

  const onChange = useCallback(
    (value: string) => {
      setText(value);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setPreviewText(value), 250);
      if (value.length > PREVIEW_LIMIT && !warned.current) {
        warned.current = true;
        sessionStorage.setItem(previewWarnedKey(itemId, pageId), '1');
        setPreviewOn(false);
        message.info(t('editor.previewOff', { limit: PREVIEW_LIMIT }));
      }
    },
    [itemId, pageId, message, t],
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const togglePreview = useCallback(() => setPreviewOn((on) => !on), []);
  return { text, previewText, previewOn, togglePreview, onChange };
}
