/** An item's page recycle bin (reference pages §8). */
import type { RecycleEntry } from '../../api/types';
import { request } from '../../api/request';

export const recycleList = (itemId: number) =>
  request<RecycleEntry[]>('recycle/getList', { item_id: itemId });

export const recoverPage = (itemId: number, pageId: number) =>
  request<unknown>('recycle/recover', { item_id: itemId, page_id: pageId });
