/**
 * Pasted (or dropped) pictures go to `page/uploadImg`, editor.md's upload action: it answers
 * without the envelope, `{url, success: 1}` or `{message, success: 0}` (reference pages §3.13).
 */
import i18n from 'i18next';
import { uploadBare } from '../../../api/request';
import type { EditorPageContext } from '../contract';

interface ImageUploadAnswer {
  success?: number | string;
  url?: string;
  message?: string;
}

/**
 * Uploads one picture for the page and resolves with its URL; rejects with the server's message
 * (or "image upload failed") for the caller to alert (spec 001 §5). Only a dead login is handled
 * here, by the API client.
 */
export async function uploadPastedImage(file: File, page: EditorPageContext): Promise<string> {
  const answer = await uploadBare<ImageUploadAnswer>(
    'page/uploadImg',
    file,
    // A clipboard picture may come without a name; the server needs an extension to accept it.
    file.name || `image.${file.type.replace(/^image\//, '') || 'png'}`,
    { item_id: page.itemId, page_id: page.pageId },
    { alert: false },
  );
  if (Number(answer.success) === 1 && answer.url) return answer.url;
  throw new Error(answer.message || i18n.t('editAssets.image.uploadFailed'));
}
