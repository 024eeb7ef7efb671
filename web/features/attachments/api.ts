/** The user's attachment library (reference accounts §9.19). */
import type { AttachmentList } from '../../api/types';
import { request } from '../../api/request';

/** attachment_type: 0 all, 1 images, 2 other files. */
export const myAttachments = (input: {
  page: number;
  count: number;
  attachment_type: number;
  display_name: string;
}) => request<AttachmentList>('attachment/getMyList', { ...input, username: '' });

export const deleteMyAttachment = (fileId: number) =>
  request<unknown>('attachment/deleteMyAttachment', { file_id: fileId });
