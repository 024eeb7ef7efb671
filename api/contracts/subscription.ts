/** `subscription` (reference pages §6) and `adminMessage` (accounts §11): who is notified. */
import { z } from 'zod';
import { action, id, int, list, nothing, str } from './coerce';

export const PageSubscriber = z.object({
  id: z.string(),
  uid: z.string(),
  object_id: z.string(),
  object_type: z.string(),
  action_type: z.string(),
  sub_time: z.union([z.number(), z.string()]),
  username: z.string(),
  name: z.string().nullable().optional(),
});

export const subscriptionContract = {
  getPageList: action({ page_id: id() }, z.array(PageSubscriber)),
  savePage: action({ page_id: id(), uids: list() }, nothing),
  deletePage: action({ page_id: id(), uids: list() }, nothing),
};

export const adminMessageContract = {
  addAnnouncement: action(
    { message_content: str(), message_type: str(), send_at: str() },
    z.unknown(),
  ),
  listAnnouncements: action(
    { page: int(1), count: int(20) },
    z.array(z.looseObject({ id: z.string(), message_content: z.string(), addtime: z.string() })),
  ),
};
