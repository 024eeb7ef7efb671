/** The back office's calls (reference accounts §9.21–§9.24, spec 002 §7). */
import type { Output } from '../../../api/contracts';
import type { Attachment } from '../../api/types';
import { request } from '../../api/request';

/** Rows per admin list page (spec 002 §9). */
export const ADMIN_PAGE_SIZE = 7;

export type AdminUser = Output<'adminuser', 'getList'>['users'][number];

export const adminUsers = (username: string, page: number) =>
  request<Output<'adminuser', 'getList'>>('adminUser/getList', {
    username,
    page,
    count: ADMIN_PAGE_SIZE,
  });

/** uid 0 creates; otherwise edits (blank password keeps it). */
export const saveAdminUser = (input: {
  uid: number;
  username: string;
  name: string;
  password: string;
}) => request<unknown>('adminUser/addUser', input);

export const deleteAdminUser = (uid: number) => request<unknown>('adminUser/deleteUser', { uid });

export type AdminItem = Output<'adminitem', 'getList'>['items'][number];

export const adminItems = (input: {
  item_name: string;
  username: string;
  page: number;
  count?: number;
}) =>
  request<Output<'adminitem', 'getList'>>('adminItem/getList', {
    count: ADMIN_PAGE_SIZE,
    ...input,
  });

export const adminDeleteItem = (itemId: number) =>
  request<unknown>('adminItem/deleteItem', { item_id: itemId });

export const adminTransferItem = (itemId: number, username: string) =>
  request<unknown>('adminItem/attorn', { item_id: itemId, username });

export interface AdminAttachment extends Attachment {
  username: string;
}

/** attachment_type: -1 all, 1 images, 2 other files. */
export const adminAttachments = (input: {
  page: number;
  attachment_type: number;
  display_name: string;
  username: string;
}) =>
  request<{ list: AdminAttachment[]; total: number; used_m: number }>('attachment/getAllList', {
    ...input,
    count: ADMIN_PAGE_SIZE,
  });

export const adminDeleteAttachment = (fileId: number) =>
  request<unknown>('attachment/deleteAttachment', { file_id: fileId });

export interface OssSetting {
  oss_type: string;
  key: string;
  secret: string;
  secret_set?: number;
  endpoint: string;
  bucket: string;
  protocol: string;
  domain: string;
  region: string;
  secretId: string;
  secretKey: string;
  secretKey_set?: number;
}

export interface SiteConfig {
  register_open: string;
  /** '1': every logged-in user finds every user in the member pickers (ShowDoc's behaviour). */
  user_directory_open: string;
  home_page: string;
  home_item: string;
  beian: string;
  history_version_count: number;
  /** Pages one item may hold; 0 = no limit. */
  page_quota?: number;
  show_watermark: string;
  /** '1': the public square (a directory of open items) is on. */
  enable_public_square?: string;
  site_url: string;
  open_ai_key: string;
  open_ai_key_set: number;
  open_ai_host: string;
  ai_model_name: string;
  oss_open: string;
  oss_setting: Partial<OssSetting>;
}

export const loadSiteConfig = () => request<SiteConfig>('adminSetting/loadConfig');

/** Objects travel as JSON text (the form transport has no nesting); blank secrets keep theirs. */
export const saveSiteConfig = (
  config: Record<string, string | number>,
  oss?: Partial<OssSetting>,
) =>
  request<unknown>('adminSetting/saveConfig', {
    ...config,
    oss_setting: oss ? JSON.stringify(oss) : undefined,
  });

export type FormValues = Record<string, string | number | undefined>;

export const loadLdapConfig = () =>
  request<{ ldap_open: string; ldap_form: FormValues }>('adminSetting/loadLdapConfig');

export const saveLdapConfig = (open: boolean, form: FormValues) =>
  request<unknown>('adminSetting/saveLdapConfig', {
    ldap_open: open ? 1 : 0,
    ldap_form: JSON.stringify(form),
  });

export const loadOauth2Config = () =>
  request<{ oauth2_open: string; oauth2_form: FormValues }>('adminSetting/loadOauth2Config');

export const saveOauth2Config = (open: boolean, form: FormValues) =>
  request<unknown>('adminSetting/saveOauth2Config', {
    oauth2_open: open ? 1 : 0,
    oauth2_form: JSON.stringify(form),
  });

export const getLoginSecretKey = () =>
  request<Output<'adminsetting', 'getLoginSecretKey'>>('adminSetting/getLoginSecretKey');

export const resetLoginSecretKey = () =>
  request<Output<'adminsetting', 'resetLoginSecretKey'>>('adminSetting/resetLoginSecretKey');

export const siteVersion = () => request<Output<'common', 'version'>>('common/version');

export type UpdateInfo = Output<'adminupdate', 'checkUpdate'>;

export const checkUpdate = () =>
  request<UpdateInfo>('adminUpdate/checkUpdate', {}, { alert: false });
