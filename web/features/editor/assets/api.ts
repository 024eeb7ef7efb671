/**
 * The editor's asset calls: templates (reference pages §5), files bound to the page (§3.13) and
 * the page's subscribers (§6, candidates from `member/getAllList`). The editor is a workspace
 * screen, so failures are alerted by the API client unless a caller says otherwise.
 */
import type { Output } from '../../../../api/contracts';
import { request, uploadBare, type Params } from '../../../api/request';

/** A list call: anything but an array (ShowDoc answers some empty lists as `{}`) means none. */
function requestList<T>(route: string, params: Params = {}): Promise<T[]> {
  return request<T[] | Record<string, never>>(route, params).then((rows) =>
    Array.isArray(rows) ? rows : [],
  );
}

export interface TemplateShare {
  id: string;
  template_id: string;
  item_id: string;
  uid: string;
  username: string;
  created_at: string;
}

/** One of the caller's templates (`template/getMyList`). */
export interface MyTemplate {
  id: string;
  uid: string;
  username: string;
  template_title: string;
  template_content: string;
  addtime: string;
  share_item: TemplateShare[];
  share_item_count: number;
}

/** A template shared to an item (`template/getItemList`): `id` is the share row's. */
export interface ItemTemplate {
  id: string;
  template_id: string;
  uid: string;
  username: string;
  template_title: string;
  template_content: string;
  addtime: string;
  created_at: string;
}

export const myTemplates = () => requestList<MyTemplate>('template/getMyList');

export const itemTemplates = (itemId: number) =>
  requestList<ItemTemplate>('template/getItemList', { item_id: itemId });

export const saveTemplate = (title: string, content: string) =>
  request<{ id: number }>('template/save', { template_title: title, template_content: content });

export const deleteTemplate = (templateId: number) =>
  request<unknown>('template/delete', { id: templateId });

/** Replaces the template's shares with `itemIds`. */
export const shareTemplate = (templateId: number, itemIds: number[]) =>
  request<unknown>('template/shareToItem', {
    template_id: templateId,
    // An empty item list is refused as a parameter error; "0" is the way to share to nothing.
    item_id: itemIds.length ? itemIds.join(',') : '0',
  });

/** `page/upload`'s success answer (no envelope). */
interface UploadAnswer {
  url?: string;
  success?: number | string;
}

/** Uploads a file and binds it to the page; the server's refusal is alerted. */
export const uploadPageFile = (file: File, itemId: number, pageId: number) =>
  uploadBare<UploadAnswer>('page/upload', file, file.name, { item_id: itemId, page_id: pageId });

/** Unbinds a file from the page (deleting it when this page was its only one). */
export const removePageFile = (fileId: number, pageId: number) =>
  request<unknown>('page/deleteUploadFile', { file_id: fileId, page_id: pageId });

/** Binds one of the caller's own files (the file hub) to the page. */
export const bindFileToPage = (fileId: number, pageId: number) =>
  request<unknown>('attachment/bindingPage', { file_id: fileId, page_id: pageId });

export interface Subscriber {
  id: string;
  uid: string;
  username: string;
  name: string;
  sub_time: string;
}

/** Someone who may be subscribed: the item's owner and members (`member/getAllList`). */
export type ItemPerson = Output<'member', 'getAllList'>[number];

export const pageSubscribers = (pageId: number) =>
  requestList<Subscriber>('subscription/getPageList', { page_id: pageId });

export const subscribeToPage = (pageId: number, uids: number[]) =>
  request<unknown>('subscription/savePage', { page_id: pageId, uids: uids.join(',') });

export const unsubscribeFromPage = (pageId: number, uids: number[]) =>
  request<unknown>('subscription/deletePage', { page_id: pageId, uids: uids.join(',') });

export const itemPeople = (itemId: number) =>
  requestList<ItemPerson>('member/getAllList', { item_id: itemId });
