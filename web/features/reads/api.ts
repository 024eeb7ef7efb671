/** The read-marker calls (api/contracts/read.ts). Quiet: a lost marker is not worth an alert. */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';

const QUIET = { manager: false, alert: false, redirect: false } as const;

export type PageChanges = Output<'read', 'changes'>;

export const markRead = (itemId: number, pages: Array<{ pageId: number; addtime: number }>) =>
  request<Output<'read', 'mark'>>(
    'read/mark',
    {
      item_id: itemId,
      page_ids: pages.map((p) => p.pageId).join(','),
      addtimes: pages.map((p) => p.addtime).join(','),
    },
    QUIET,
  );

export const markAllRead = (itemId: number) =>
  request<Output<'read', 'markAll'>>('read/markAll', { item_id: itemId }, QUIET);

export const fetchChanges = (pageId: number, since?: number) =>
  request<PageChanges>('read/changes', { page_id: pageId, since: since || undefined }, QUIET);

export const fetchItemCounts = () =>
  request<Output<'read', 'itemCounts'>>('read/itemCounts', {}, QUIET);
