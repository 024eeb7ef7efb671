/** The calls of the editor's document tools (reference pages §3.7, §3.14). */
import { request } from '../../../api/request';

/** A CREATE TABLE statement as a Markdown table (server-side parser); errors are alerted. */
export const sqlToMarkdownTable = (sql: string) =>
  request<{ markdown: string }>('page/sqlToMarkdownTable', { sql }).then((data) => data.markdown);

/** Sets the remark of one kept version; false when no version was updated. */
export const updateHistoryRemark = (pageId: number, pageHistoryId: string, remark: string) =>
  request<{ success: boolean }>('page/updateHistoryComments', {
    page_id: pageId,
    page_history_id: pageHistoryId,
    page_comments: remark,
  }).then((data) => data.success);
