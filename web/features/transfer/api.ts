/**
 * Data in and out: `import/auto` uploads and `export/word|pdf|markdown|openapi` downloads.
 * Downloads are fetched with the token in a header (never in an address the app makes) and saved
 * from a blob, so a refusal is shown as a message instead of a raw envelope in a new tab.
 */
import { getToken } from '../../auth/storage';
import { ApiRequestError, upload, type RequestOptions } from '../../api/request';

export interface ImportAnswer {
  item_id: number;
  pages: number;
  source: string;
  notes: string[];
}

/** Imports a file into `itemId` (0 = a new item); `importId` tags its progress pushes. */
export const importFile = (
  file: File,
  itemId: number,
  importId: string,
  options: RequestOptions = {},
) =>
  upload<ImportAnswer>(
    'import/auto',
    file,
    file.name,
    { ...(itemId > 0 ? { item_id: itemId } : {}), import_id: importId },
    options,
  );

export interface ExportChoice {
  itemId: number;
  catId?: number;
  pageId?: number;
}

function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

export type ExportKind = 'word' | 'pdf' | 'markdown' | 'openapi';

/** Downloads an export; rejects with the server's message when it refuses. */
export async function downloadExport(kind: ExportKind, choice: ExportChoice) {
  const query = new URLSearchParams({ item_id: String(choice.itemId) });
  if (choice.catId) query.set('cat_id', String(choice.catId));
  if (choice.pageId && (kind === 'word' || kind === 'pdf'))
    query.set('page_id', String(choice.pageId));
  const route = `export/${kind}`;
  const response = await fetch(`/api/${route}?${query.toString()}`, {
    headers: { 'X-API-Token': getToken() },
    credentials: 'same-origin',
  });
  // A file comes as an attachment (the OpenAPI document is JSON too); anything else is an envelope.
  if (!(response.headers.get('content-disposition') ?? '').includes('attachment')) {
    const body = (await response.json()) as { error_code: number; error_message?: string };
    throw new ApiRequestError(body.error_code, body.error_message ?? '', route, response.status);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, `showdoc-${kind}`);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
