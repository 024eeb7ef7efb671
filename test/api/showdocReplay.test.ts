/**
 * A recorded ShowDoc session replayed against Quire: the calls ShowDoc 3.9's web front end makes
 * from sign-in to sign-out (items, catalogs, page save and update, history, diff, share link,
 * members, attachments, notices), with the parameters it sends, in its order. Every answer's
 * field names and JSON types are compared with ShowDoc's documented shapes
 * (../shared/reference: accounts §0.4 and §7–§9, pages §2–§4) — not the values, which differ
 * between runs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTestServer, type TestServer } from '../helpers/server';
import { postMultipart } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

/** A JSON type, a nested shape, `[shape]` for a non-empty array of rows, or `'empty[]'`. */
type Shape =
  'string' | 'number' | 'boolean' | 'null' | 'empty[]' | Shape[] | { [k: string]: Shape };

const S = 'string' as const;
const N = 'number' as const;
const B = 'boolean' as const;

/** The shape of a value, rows of an array by their first element. */
function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : 'empty[]';
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOf(v)]),
    );
  return typeof value as Shape;
}

const strings = (...names: string[]): Record<string, Shape> =>
  Object.fromEntries(names.map((n) => [n, S]));

// Documented shapes (reference sections in brackets).
const PAGE_ROW = strings(
  'page_id',
  'author_uid',
  'author_username',
  'item_id',
  'cat_id',
  'page_title',
  'page_content',
  's_number',
  'addtime',
  'page_addtime',
  'page_comments',
  'is_del',
  'ext_info',
  'is_draft',
); // pages §1.2, §3.1
const HISTORY_ROW = strings(
  'page_history_id',
  'page_id',
  'item_id',
  'cat_id',
  'page_title',
  'page_content',
  'page_comments',
  's_number',
  'addtime',
  'author_uid',
  'author_username',
  'ext_info',
); // pages §1.3
const MENU_PAGE = strings(
  'page_id',
  'author_uid',
  'cat_id',
  'page_title',
  'addtime',
  'ext_info',
  'is_draft',
); // pages §2
const CATALOG_ROW = strings(
  'cat_id',
  'cat_name',
  'item_id',
  's_number',
  'addtime',
  'parent_cat_id',
  'level',
); // pages §1.4
const AI_CONFIG = {
  enabled: N,
  dialog_collapsed: N,
  guest_enabled: N,
  welcome_message: S,
  system_prompt: S,
};

let server: TestServer;
let owner: TestUser;
let member: TestUser;
/** Every answer of the session: step name → data. */
const answers = new Map<string, unknown>();

async function step(name: string, route: string, params: Record<string, unknown> = {}) {
  const answer = await server.api.call(route, { user_token: owner.user_token, ...params } as Record<
    string,
    string
  >);
  expect({ name, status: answer.status, code: answer.body.error_code }).toEqual({
    name,
    status: 200,
    code: 0,
  });
  // The envelope itself: exactly error_code and data on success (accounts §0.3).
  expect(Object.keys(answer.body).sort()).toEqual(['data', 'error_code']);
  answers.set(name, answer.body.data);
  return answer.body.data as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  owner = await makeUser({ name: 'Owner Name' });
  member = await makeUser();
});
afterAll(async () => {
  await server.stop();
});

describe('a recorded ShowDoc front-end session', () => {
  test('replays with the documented field names and JSON types', async () => {
    const expectShape = (name: string, shape: Shape) =>
      expect({ name, shape: shapeOf(answers.get(name)) }).toEqual({ name, shape });

    // Sign-in by token, then the user (accounts §7, §8.3).
    await step('user/info', 'user/info', { redirect_login: 'false' });
    expectShape('user/info', {
      ...strings('uid', 'username', 'email', 'mobile', 'name', 'avatar', 'avatar_small'),
      ...strings('groupid', 'reg_time', 'is_sso'),
      email_verify: N,
      is_wechat: N,
    });

    // Items (accounts §9.2, §9.3, §9.6).
    const { item_id: itemId } = await step('item/add', 'item/add', {
      item_name: 'Replay',
      item_description: 'recorded',
      password: '',
      item_type: 1,
    });
    expectShape('item/add', { item_id: N });
    await step('item/myList', 'item/myList', { item_group_id: 0 });
    const myList = answers.get('item/myList') as Array<Record<string, unknown>>;
    expect(Object.keys(myList[0]).sort()).toEqual(
      expect.arrayContaining(
        [
          'item_id',
          'uid',
          'item_name',
          'item_domain',
          'item_type',
          'last_update_time',
          'item_description',
          'is_del',
          'creator',
          'manage',
          'is_private',
          'is_star',
        ].sort(),
      ),
    );
    expect(shapeOf(myList[0])).toMatchObject({ item_id: S, creator: N, manage: N, is_star: N });

    // Catalogs (pages §4).
    const catId = await step('catalog/save', 'catalog/save', {
      item_id: itemId,
      cat_id: 0,
      parent_cat_id: 0,
      cat_name: 'Guide',
    });
    expect(typeof catId).toBe('number');
    await step('catalog/catListGroup', 'catalog/catListGroup', { item_id: itemId });
    expectShape('catalog/catListGroup', [{ ...CATALOG_ROW, sub: 'empty[]' }]);

    // A page created the way scripts and the editor do (no page_id), then updated (pages §3.4).
    const { page_id: pageId } = await step('page/save create', 'page/save', {
      item_id: itemId,
      cat_id: catId,
      page_title: 'Intro',
      page_content: encodeURIComponent('# Intro\n\nfirst'),
      is_urlencode: 1,
    });
    expectShape('page/save create', { page_id: N });
    await step('page/save update', 'page/save', {
      page_id: pageId,
      item_id: itemId,
      cat_id: catId,
      page_title: 'Intro',
      page_content: encodeURIComponent('# Intro\n\nsecond'),
      is_urlencode: 1,
    });
    expectShape('page/save update', PAGE_ROW);

    // Opening the item on the page (pages §2), the page (§3.1), its history and diff (§3.6, §3.8).
    await step('item/info', 'item/info', { item_id: itemId, default_page_id: pageId });
    expectShape('item/info', {
      ...strings('item_id', 'item_domain', 'is_archived', 'item_name', 'default_page_id'),
      ...strings('item_type', 'allow_comment', 'allow_feedback'),
      default_cat_id2: N,
      default_cat_id3: N,
      default_cat_id4: N,
      unread_count: N,
      menu: {
        pages: 'empty[]',
        catalogs: [{ ...CATALOG_ROW, pages: [MENU_PAGE], catalogs: 'empty[]' }],
      },
      is_login: B,
      item_edit: B,
      item_manage: B,
      ItemPermn: B,
      ItemCreator: B,
      // Quire's suggest mode: may propose changes (a ShowDoc client ignores it).
      item_suggest: B,
      current_page_id: N,
      global_param: 'empty[]',
      show_watermark: N,
      ai_knowledge_base_enabled: N,
      ai_config: AI_CONFIG,
      // Quire's read markers, beside ShowDoc's fields (a ShowDoc client ignores it).
      changed_pages: N,
      // Quire's: 1 when the item's API pages carry live-contract marks (a ShowDoc client ignores it).
      api_contract_marks: N,
    });
    expect(answers.get('item/info')).toMatchObject({ default_cat_id3: catId, default_cat_id2: 0 });
    await step('page/info', 'page/info', { page_id: pageId });
    // addtime_unix: Quire's, for read markers (a ShowDoc client ignores it).
    // suggestion_count: Quire's suggest mode (a ShowDoc client ignores it).
    expectShape('page/info', {
      ...PAGE_ROW,
      attachment_count: N,
      unique_key: S,
      addtime_unix: N,
      suggestion_count: N,
    });
    await step('page/history', 'page/history', { page_id: pageId });
    expectShape('page/history', [HISTORY_ROW]);
    const history = answers.get('page/history') as Array<{ page_history_id: string }>;
    await step('page/diff', 'page/diff', {
      page_id: pageId,
      page_history_id: history[0].page_history_id,
    });
    expectShape('page/diff', { page: PAGE_ROW, history_page: HISTORY_ROW });

    // Sharing one page (pages §3.2, §3.3).
    const link = await step('page/createSinglePage', 'page/createSinglePage', {
      page_id: pageId,
      isCreateSiglePage: 'true',
      expire_days: 0,
    });
    expect(Object.keys(link).sort()).toEqual(['expire_time', 'page_id', 'unique_key']);
    expect(shapeOf(link)).toMatchObject({ unique_key: S, expire_time: N });
    await step('page/infoByKey', 'page/infoByKey', { unique_key: link.unique_key });
    const { item_id: _i, cat_id: _c, ...shared } = PAGE_ROW;
    expectShape('page/infoByKey', { ...shared, attachment_count: N, expire_time: N });

    // Members (accounts §9.17).
    await step('member/save', 'member/save', {
      item_id: itemId,
      username: member.username,
      member_group_id: 1,
      cat_ids: '',
    });
    expectShape('member/save', { id: N });
    await step('member/getList', 'member/getList', { item_id: itemId });
    expectShape('member/getList', [
      {
        ...strings('item_member_id', 'item_id', 'uid', 'username', 'addtime', 'member_group_id'),
        ...strings('cat_id', 'cat_ids', 'cat_name', 'member_group'),
        name: 'null',
      },
    ]);

    // Attachments (pages §3.13, accounts §9.19): the upload answers without the envelope.
    const upload = await postMultipart(server.url, 'page/upload', [
      { name: 'user_token', value: owner.user_token },
      { name: 'item_id', value: String(itemId) },
      { name: 'page_id', value: String(pageId) },
      { name: 'file', filename: 'spec.txt', content: Buffer.from('spec') },
    ]);
    expect(shapeOf(upload.body)).toEqual({ url: S, success: N });
    await step('page/uploadList', 'page/uploadList', { page_id: pageId });
    expectShape('page/uploadList', [
      { file_id: N, display_name: S, url: S, addtime: S, file_type: S },
    ]);
    await step('attachment/getMyList', 'attachment/getMyList', {
      page: 1,
      count: 5,
      attachment_type: 0,
      display_name: '',
    });
    expectShape('attachment/getMyList', {
      list: [
        {
          ...{ file_id: N, uid: N, file_type: S, visit_times: N, file_size: N },
          ...{ item_id: N, page_id: N, file_size_m: N, display_name: S, url: S },
          ...strings('addtime', 'last_visit_time'),
        },
      ],
      total: N,
      used: N,
      used_m: N,
      used_flow_m: N,
    });

    // Notices (accounts §9.20): nothing unread yet.
    await step('message/getUnread', 'message/getUnread');
    expectShape('message/getUnread', { remind: 'empty[]', announce: 'empty[]' });
    await step('message/getRemindList', 'message/getRemindList', { page: 1, count: 15 });
    expectShape('message/getRemindList', { total: N, list: 'empty[]' });

    // Sign-out (accounts §8.6).
    await step('user/logout', 'user/logout', { confirm: 1 });
    expectShape('user/logout', 'empty[]');
    expect(
      (await server.api.call('user/info', { user_token: owner.user_token })).body.error_code,
    ).toBe(10102);
  });
});
