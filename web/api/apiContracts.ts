/** Live API contracts (`apiContract/*`, Quire's own controller). */
import type { Output } from '../../api/contracts';
import { request } from './request';

export type ContractInfo = Output<'apicontract', 'info'>;
export type ContractChange = ContractInfo['last_diff'][number];
export type ContractMark = NonNullable<Output<'apicontract', 'mark'>['mark']>;
export type ContractSync = Output<'apicontract', 'check'>;

export const CONTRACT_SCHEDULES = ['off', 'hourly', 'daily', 'custom'] as const;

export const contractInfo = (itemId: number) =>
  request<ContractInfo>('apiContract/info', { item_id: itemId });

export const followContract = (input: {
  item_id: number;
  url: string;
  schedule: string;
  interval_minutes: number;
}) => request<ContractInfo>('apiContract/follow', input);

export const unfollowContract = (itemId: number) =>
  request<ContractInfo>('apiContract/unfollow', { item_id: itemId });

export const checkContract = (itemId: number) =>
  request<ContractSync>('apiContract/check', { item_id: itemId }, { alert: false });

export const contractMark = (pageId: number) =>
  request<{ mark: ContractMark | null }>(
    'apiContract/mark',
    { page_id: pageId },
    { manager: false, alert: false },
  );
