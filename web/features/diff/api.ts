/** The diff screen's one call (reference pages §3.8). */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';

/** `page/diff`'s rows (times are raw Unix seconds, content escaped). */
export type PageDiff = Output<'page', 'diff'>;

/**
 * A page and one of its kept versions. Failures are shown on the screen (no alert); a dead login
 * still goes to the login screen and back here (the API client's rule).
 */
export const fetchPageDiff = (pageId: number, pageHistoryId: number) =>
  request<PageDiff>(
    'page/diff',
    { page_id: pageId, page_history_id: pageHistoryId },
    { alert: false },
  );
