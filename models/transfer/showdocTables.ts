/**
 * How each ShowDoc table becomes the Quire collection of the same name (the schemas mirror
 * ShowDoc's tables): ids unchanged, text un-escaped, ShowDoc's defaults for the columns an older
 * ShowDoc lacks. Read by showdocSource.ts; the order is the order of writing.
 */
import { inflateSync } from 'node:zlib';
import type { SqlValue } from 'sql.js';
import { unescapeFromClient } from '../pages';
import { CHANGE_ACTIONS, CHANGE_OBJECTS } from '../items';

export type Row = Record<string, SqlValue>;
export type ImportDoc = Record<string, unknown>;

/** One Quire collection filled from one ShowDoc table. */
export interface TableSpec {
  table: string;
  /** Quire's mongoose model name. */
  model: string;
  /** The id column, which is also the name of its id counter in Quire (`counters`). */
  idField: string;
  counter: string;
  /** Other unique fields (a clash on any of them stops a merge). */
  uniqueFields: string[];
  /** Field sets Quire keeps unique together; ShowDoc had no such index, so repeats are dropped. */
  uniqueTogether?: string[][];
  convert(row: Row): ImportDoc;
  /**
   * Whether Quire can hold a converted row; the others are left out and counted (`unusable`),
   * never a reason to refuse the whole site.
   */
  usable?(doc: ImportDoc): boolean;
}

export const int = (value: SqlValue | undefined, fallback = 0): number => {
  if (value === null || value === undefined || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
};
export const text = (value: SqlValue | undefined): string =>
  value === null || value === undefined
    ? ''
    : value instanceof Uint8Array
      ? Buffer.from(value).toString('utf8')
      : String(value);

/** ShowDoc writes some times as `Y-m-d H:i:s` (server local time) and others as Unix seconds. */
export function toSeconds(value: SqlValue | undefined): number {
  const raw = text(value).trim();
  if (raw === '') return 0;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parsed = Date.parse(raw.replace(' ', 'T'));
  return Number.isFinite(parsed) ? Math.floor(parsed / 1000) : 0;
}

/** Unix seconds kept as ShowDoc's datetime text where Quire keeps strings (mock, stars, groups). */
const asDatetime = (value: SqlValue | undefined): string => text(value);

const idList = (value: SqlValue | undefined): number[] =>
  text(value)
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

/** ShowDoc's hosted edition stored history as base64(gzcompress(text)); the open edition as is. */
export function maybeInflate(content: string): string {
  if (content.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(content)) return content;
  const bytes = Buffer.from(content, 'base64');
  // zlib header: CMF 0x78 and a check byte that makes the pair divisible by 31.
  if (bytes[0] !== 0x78 || ((bytes[0] << 8) | bytes[1]) % 31 !== 0) return content;
  try {
    return inflateSync(bytes).toString('utf8');
  } catch {
    return content;
  }
}

const pageText = (value: SqlValue | undefined) => unescapeFromClient(maybeInflate(text(value)));
const memberGroup = (value: SqlValue | undefined, fallback: number) => {
  const n = int(value, fallback);
  return [0, 1, 2].includes(n) ? n : fallback;
};

/** In dependency order: a row's references are written before it (users, items, catalogs, …). */
export const TABLES: TableSpec[] = [
  {
    table: 'user',
    model: 'User',
    idField: 'uid',
    counter: 'uid',
    uniqueFields: ['username'],
    convert: (r) => ({
      uid: int(r.uid),
      username: text(r.username),
      groupid: int(r.groupid, 2) === 1 ? 1 : 2,
      name: text(r.name),
      avatar: text(r.avatar),
      avatar_small: text(r.avatar_small),
      email: text(r.email),
      mobile: text(r.mobile),
      // An account without a password (SSO) gets a value no password hashes to.
      password: text(r.password) || '!',
      salt: text(r.salt),
      is_sso: int(r.is_sso),
      reg_time: int(r.reg_time),
      last_login_time: int(r.last_login_time),
    }),
  },
  {
    table: 'item',
    model: 'Item',
    idField: 'item_id',
    counter: 'item_id',
    uniqueFields: ['item_domain'],
    convert: (r) => ({
      item_id: int(r.item_id),
      item_name: text(r.item_name),
      item_description: text(r.item_description),
      uid: int(r.uid),
      username: text(r.username),
      password: text(r.password), // plain here; hashed by the migration before writing
      addtime: int(r.addtime),
      last_update_time: int(r.last_update_time),
      item_domain: text(r.item_domain),
      item_type: int(r.item_type, 1),
      is_archived: int(r.is_archived),
      is_del: int(r.is_del),
      // ShowDoc kept no deletion time; the last change is the closest it has.
      del_time: int(r.is_del) ? int(r.last_update_time) || int(r.addtime) : 0,
      allow_comment: int(r.allow_comment),
      allow_feedback: int(r.allow_feedback),
    }),
  },
  {
    table: 'catalog',
    model: 'Catalog',
    idField: 'cat_id',
    counter: 'cat_id',
    uniqueFields: [],
    convert: (r) => ({
      cat_id: int(r.cat_id),
      cat_name: text(r.cat_name),
      item_id: int(r.item_id),
      s_number: int(r.s_number, 99),
      addtime: int(r.addtime),
      parent_cat_id: int(r.parent_cat_id),
      level: Math.min(4, Math.max(2, int(r.level, 2))),
    }),
  },
  {
    table: 'page',
    model: 'Page',
    idField: 'page_id',
    counter: 'page_id',
    uniqueFields: [],
    convert: (r) => ({
      page_id: int(r.page_id),
      item_id: int(r.item_id),
      cat_id: int(r.cat_id),
      page_title: text(r.page_title),
      page_content: pageText(r.page_content),
      page_comments: text(r.page_comments),
      s_number: int(r.s_number, 99),
      addtime: int(r.addtime),
      page_addtime: int(r.page_addtime),
      author_uid: int(r.author_uid),
      author_username: text(r.author_username),
      is_del: int(r.is_del),
      ext_info: text(r.ext_info),
      is_draft: int(r.is_draft),
    }),
  },
  {
    table: 'page_history',
    model: 'PageHistory',
    idField: 'page_history_id',
    counter: 'page_history_id',
    uniqueFields: [],
    convert: (r) => ({
      page_history_id: int(r.page_history_id),
      page_id: int(r.page_id),
      item_id: int(r.item_id),
      cat_id: int(r.cat_id),
      page_title: text(r.page_title),
      page_content: pageText(r.page_content),
      page_comments: text(r.page_comments),
      s_number: int(r.s_number, 99),
      addtime: int(r.addtime),
      author_uid: int(r.author_uid),
      author_username: text(r.author_username),
      ext_info: text(r.ext_info),
    }),
  },
  {
    table: 'item_member',
    model: 'ItemMember',
    uniqueTogether: [['item_id', 'uid']],
    idField: 'item_member_id',
    counter: 'item_member_id',
    uniqueFields: [],
    convert: (r) => ({
      item_member_id: int(r.item_member_id),
      item_id: int(r.item_id),
      uid: int(r.uid),
      username: text(r.username),
      addtime: int(r.addtime),
      member_group_id: memberGroup(r.member_group_id, 1),
      cat_id: int(r.cat_id),
      cat_ids: idList(r.cat_ids),
    }),
  },
  {
    table: 'team',
    model: 'Team',
    idField: 'id',
    counter: 'team_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      team_name: text(r.team_name),
      uid: int(r.uid),
      username: text(r.username),
      addtime: int(r.addtime),
      last_update_time: int(r.last_update_time),
    }),
  },
  {
    table: 'team_member',
    model: 'TeamMember',
    uniqueTogether: [['team_id', 'member_uid']],
    idField: 'id',
    counter: 'team_member_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      team_id: int(r.team_id),
      member_uid: int(r.member_uid),
      member_username: text(r.member_username),
      team_member_group_id: int(r.team_member_group_id, 1) === 2 ? 2 : 1,
      addtime: int(r.addtime),
      last_update_time: int(r.last_update_time),
    }),
  },
  {
    table: 'team_item',
    model: 'TeamItem',
    uniqueTogether: [['team_id', 'item_id']],
    idField: 'id',
    counter: 'team_item_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      team_id: int(r.team_id),
      item_id: int(r.item_id),
      addtime: int(r.addtime),
      last_update_time: int(r.last_update_time),
    }),
  },
  {
    table: 'team_item_member',
    model: 'TeamItemMember',
    idField: 'id',
    counter: 'team_item_member_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      team_id: int(r.team_id),
      item_id: int(r.item_id),
      member_group_id: memberGroup(r.member_group_id, 1),
      member_uid: int(r.member_uid),
      member_username: text(r.member_username),
      addtime: int(r.addtime),
      last_update_time: int(r.last_update_time),
      cat_id: int(r.cat_id),
      cat_ids: idList(r.cat_ids),
    }),
  },
  {
    table: 'item_group',
    model: 'ItemGroup',
    idField: 'id',
    counter: 'item_group_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      group_name: text(r.group_name),
      item_ids: text(r.item_ids),
      s_number: int(r.s_number),
      created_at: asDatetime(r.created_at),
      updated_at: asDatetime(r.updated_at),
    }),
  },
  {
    table: 'item_sort',
    model: 'ItemSort',
    uniqueTogether: [['uid', 'item_group_id']],
    idField: 'id',
    counter: 'item_sort_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      item_group_id: int(r.item_group_id),
      item_sort_data: text(r.item_sort_data),
      addtime: int(r.addtime),
    }),
  },
  {
    table: 'item_top',
    model: 'ItemTop',
    uniqueTogether: [['uid', 'item_id']],
    idField: 'id',
    counter: 'item_top_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      item_id: int(r.item_id),
      addtime: int(r.addtime),
    }),
  },
  {
    table: 'item_star',
    model: 'ItemStar',
    uniqueTogether: [['uid', 'item_id']],
    idField: 'id',
    counter: 'item_star_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      item_id: int(r.item_id),
      s_number: int(r.s_number),
      created_at: asDatetime(r.created_at),
      updated_at: asDatetime(r.updated_at),
    }),
  },
  {
    table: 'template',
    model: 'Template',
    idField: 'id',
    counter: 'template_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      username: text(r.username),
      template_title: text(r.template_title) || '-',
      template_content: pageText(r.template_content),
      addtime: int(r.addtime),
    }),
  },
  {
    table: 'template_item',
    model: 'TemplateItem',
    uniqueTogether: [['template_id', 'item_id']],
    idField: 'id',
    counter: 'template_item_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      template_id: int(r.template_id),
      item_id: int(r.item_id),
      uid: int(r.uid),
      username: text(r.username),
      created_at: asDatetime(r.created_at),
    }),
  },
  {
    table: 'upload_file',
    model: 'UploadFile',
    idField: 'file_id',
    counter: 'file_id',
    uniqueFields: ['sign'],
    // file_type and storage_key are filled by the migration once the bytes are found.
    convert: (r) => ({
      file_id: int(r.file_id),
      sign: text(r.sign),
      display_name: text(r.display_name),
      file_type: text(r.file_type),
      file_size: int(r.file_size),
      uid: int(r.uid),
      item_id: int(r.item_id),
      page_id: int(r.page_id),
      visit_times: int(r.visit_times),
      addtime: int(r.addtime),
      real_url: text(r.real_url),
      storage_key: '',
      last_update_time: int(r.last_update_time),
      last_visit_time: int(r.last_visit_time),
    }),
  },
  {
    table: 'file_page',
    model: 'FilePage',
    uniqueTogether: [['file_id', 'page_id']],
    idField: 'id',
    counter: 'file_page_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      file_id: int(r.file_id),
      item_id: int(r.item_id),
      page_id: int(r.page_id),
      addtime: toSeconds(r.addtime),
    }),
  },
  {
    table: 'mock',
    model: 'Mock',
    idField: 'id',
    counter: 'mock_id',
    uniqueFields: ['unique_key', 'page_id'],
    convert: (r) => ({
      id: int(r.id),
      unique_key: text(r.unique_key),
      uid: int(r.uid),
      page_id: int(r.page_id),
      item_id: int(r.item_id),
      view_times: int(r.view_times),
      template: text(r.template),
      path: text(r.path) || '/',
      addtime: asDatetime(r.addtime),
      last_update_time: asDatetime(r.last_update_time),
    }),
  },
  {
    table: 'single_page',
    model: 'SinglePage',
    idField: 'id',
    counter: 'single_page_id',
    uniqueFields: ['unique_key', 'page_id'],
    convert: (r) => ({
      id: int(r.id),
      unique_key: text(r.unique_key),
      page_id: int(r.page_id),
      expire_time: int(r.expire_time),
    }),
  },
  {
    table: 'item_token',
    model: 'ItemToken',
    idField: 'id',
    counter: 'item_token_id',
    uniqueFields: ['api_key', 'item_id'],
    convert: (r) => ({
      id: int(r.id),
      item_id: int(r.item_id),
      api_key: text(r.api_key),
      api_token: text(r.api_token),
      addtime: int(r.addtime),
      last_check_time: int(r.last_check_time),
    }),
  },
  {
    table: 'recycle',
    model: 'Recycle',
    idField: 'id',
    counter: 'recycle_id',
    uniqueFields: ['page_id'],
    convert: (r) => ({
      id: int(r.id),
      item_id: int(r.item_id),
      page_id: int(r.page_id),
      page_title: text(r.page_title),
      del_by_uid: int(r.del_by_uid),
      del_by_username: text(r.del_by_username),
      del_time: int(r.del_time),
    }),
  },
  {
    // Who follows what (ShowDoc writes only page/update: "save and notify" reminds them).
    table: 'subscription',
    model: 'Subscription',
    uniqueTogether: [['object_id', 'object_type', 'action_type', 'uid']],
    idField: 'id',
    counter: 'subscription_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      object_id: int(r.object_id),
      object_type: text(r.object_type),
      action_type: text(r.action_type),
      sub_time: text(r.sub_time),
    }),
    // ShowDoc's addSub refused these; a row without them follows nothing.
    usable: (d) =>
      (d.uid as number) > 0 &&
      (d.object_id as number) > 0 &&
      d.object_type !== '' &&
      d.action_type !== '',
  },
  {
    table: 'item_change_log',
    model: 'ItemChangeLog',
    idField: 'id',
    counter: 'item_change_log_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      uid: int(r.uid),
      item_id: int(r.item_id),
      op_action_type: text(r.op_action_type),
      op_object_type: text(r.op_object_type),
      op_object_id: int(r.op_object_id),
      op_object_name: text(r.op_object_name),
      remark: text(r.remark),
      // `Y-m-d H:i:s`, as Quire's own rows (formatNow) keep it.
      optime: text(r.optime),
    }),
    // The actions and objects ShowDoc's log names (others it showed as "undefined").
    usable: (d) =>
      (CHANGE_ACTIONS as readonly unknown[]).includes(d.op_action_type) &&
      (CHANGE_OBJECTS as readonly unknown[]).includes(d.op_object_type),
  },
  {
    // The kanban boards' activity log (boards and tasks themselves are pages, migrated above).
    table: 'kanban_activity_log',
    model: 'KanbanActivity',
    idField: 'id',
    counter: 'kanban_activity_id',
    uniqueFields: [],
    convert: (r) => ({
      id: int(r.id),
      item_id: int(r.item_id),
      page_id: int(r.page_id),
      event_type: text(r.event_type),
      event_data: text(r.event_data) || '{}',
      operator_uid: int(r.operator_uid),
      addtime: int(r.addtime),
    }),
    usable: (d) => (d.item_id as number) > 0 && d.event_type !== '',
  },
];

/** ShowDoc tables with no Quire counterpart (or session state not worth keeping). */
