/** `attachment` (reference pages §5): the caller's files, the admin's file list. */
import { z } from 'zod';
import { action, id, int, list, nothing, str } from './coerce';

const numish = z.union([z.number(), z.string()]);

export const Attachment = z.object({
  file_id: numish,
  display_name: z.string(),
  file_type: z.string(),
  file_size_m: numish,
  /** Bytes (Quire and ShowDoc send it; older servers may not). */
  file_size: numish.optional(),
  visit_times: numish,
  addtime: z.string(),
  url: z.string(),
});

export const AttachmentList = z.object({
  list: z.array(Attachment),
  total: numish,
  used_m: numish,
  used_flow_m: numish,
});

/** A file uploaded to a page (the page's attachment dialog). */
export const PageAttachment = z.object({
  file_id: numish,
  display_name: z.string(),
  url: z.string(),
  addtime: z.string(),
  file_type: z.string(),
});

const filter = { attachment_type: int(), display_name: str(), page: int(1), count: int(20) };

export const attachmentContract = {
  getMyList: action(filter, AttachmentList),
  deleteMyAttachment: action({ file_id: id() }, nothing),
  getAllList: action(
    { ...filter, username: str() },
    z.looseObject({ list: z.array(z.looseObject({ file_id: numish })), total: numish }),
  ),
  getUnusedList: action(
    { page: int(1), count: int(10), display_name: str(), username: str() },
    z.looseObject({ list: z.array(z.looseObject({ file_id: numish })), total: numish }),
  ),
  batchDeleteAttachments: action({ file_ids: list() }, z.unknown()),
  deleteAttachment: action({ file_id: id() }, nothing),
  bindingPage: action({ file_id: id(), page_id: id() }, nothing),
  pageAttachmentUploadList: action({ page_id: id() }, z.array(PageAttachment)),
  deletePageUploadFile: action({ file_id: id(), page_id: id() }, nothing),
};
