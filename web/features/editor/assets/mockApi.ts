/** The page's mock response (reference pages §7): `mock/infoByPageId` and `mock/add`. */
import { request } from '../../../api/request';

/** A saved mock as `mock/infoByPageId` returns it (template HTML-escaped, path with its `~`). */
export interface PageMock {
  unique_key: string;
  item_id: string;
  page_id: string;
  template: string;
  path: string;
}

/** The page's mock, or null when it has none (ShowDoc answers `[]`). */
export function pageMock(pageId: number): Promise<PageMock | null> {
  return request<PageMock | []>('mock/infoByPageId', { page_id: pageId }).then((data) =>
    Array.isArray(data) || !data ? null : data,
  );
}

export function saveMock(
  pageId: number,
  template: string,
  path: string,
): Promise<{ unique_key: string; path: string }> {
  return request('mock/add', { page_id: pageId, template, path });
}

/** The public URLs a mock answers at (`/server/mock-data/…`, `/server/mock-path/…`). */
export function mockUrls(origin: string, itemId: number, uniqueKey: string, path: string) {
  return {
    byKey: `${origin}/server/mock-data/${uniqueKey}`,
    byPath: `${origin}/server/mock-path/${itemId}?path=${path}`,
  };
}

/**
 * A starting template from the page itself: a RunApi API page's success example, else the first
 * ```json block of a Markdown page (the API doc template's return example); '' when neither.
 */
export function templateFromPage(text: string): string {
  try {
    const doc = JSON.parse(text) as {
      info?: { url?: string };
      response?: { responseExample?: string };
    };
    if (doc?.info?.url && typeof doc.response?.responseExample === 'string')
      return doc.response.responseExample;
  } catch {
    // Markdown, not a RunApi page.
  }
  const block = /```json[^\n]*\n([\s\S]*?)```/i.exec(text);
  return block ? block[1].trim() : '';
}
