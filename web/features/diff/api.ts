/** The diff screen's one call (reference pages §3.8). */
import { request } from '../../api/request';

/** Fields of `page/diff`'s rows the screen shows (times are raw Unix seconds, content escaped). */
interface DiffRow {
  page_title: string;
  page_content: string;
  addtime: string;
  author_username: string;
}

export interface PageDiff {
  page: DiffRow & { page_id: string };
  history_page: DiffRow & { page_history_id: string; page_comments: string };
}

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
