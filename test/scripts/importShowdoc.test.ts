/**
 * `npm run quire -- import:showdoc` as a real child process, on a ShowDoc SQLite database this test
 * builds with sql.js from ShowDoc's own schema (fixtures/showdoc-schema.sql: the CREATE TABLE
 * statements of Sqlite/showdoc.db.php and its upgrade code, no rows). Then Quire starts on the
 * migrated DATA_DIR and the site is checked through the API a ShowDoc client uses.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import bcrypt from 'bcryptjs';
import initSqlJs from 'sql.js';
import { User } from '../../models/accounts/schemas';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { Item, ItemChangeLog, ItemStar } from '../../models/items/schemas';
import { Catalog } from '../../models/catalogs/schemas';
import { Page, PageHistory, SinglePage } from '../../models/pages/schemas';
import { unescapeFromClient, versionText } from '../../models/pages';
import { ItemMember, TeamItemMember, TeamMember } from '../../models/members/schemas';
import { FilePage, UploadFile } from '../../models/files/schemas';
import { Message, MessageContent, Subscription } from '../../models/notices/schemas';
import { inspectDataDir as inspect, killAllChildren, runCli } from '../helpers/processes';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { filesUnder, samples } from '../helpers/uploads';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
/** ShowDoc's legacy hash (server/app/Common/Helper/Security.php hashPassword). */
const showdocHash = (password: string, salt = '') =>
  md5(Buffer.from(md5(password)).toString('base64') + '576hbgh6' + salt);
/** PHP htmlspecialchars with ENT_QUOTES, as ShowDoc stored page text. */
const htmlspecialchars = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');

const NOW = 1_700_000_000;
const ITEM = 600_000_123;
const SECRET_ITEM = 600_000_124;
const CATS = [400_000_001, 400_000_002, 400_000_003];
const PAGES = [100_000_001, 100_000_002, 100_000_003];
const PAGE_SEQUENCE = 100_000_050;
const FILE_SIGN = md5('file-sign');
const SHARE_KEY = md5('share-key');
const MOCK_KEY = md5('mock-key');
const API_KEY = md5('api-key');
const API_TOKEN = md5('api-token');
const OLD_IMAGE_URL = 'http://old.example.com/Public/Uploads/2024-01-02/abc.png';

const USERS = [
  { uid: 1, username: 'showdoc', groupid: 1, password: 'admin-old-pass', salt: '' },
  { uid: 2, username: 'alice', groupid: 2, password: 'alice-pass', salt: 'x9k2' },
  { uid: 7, username: 'bob', groupid: 2, password: 'bob-pass', salt: '', bcrypt: true },
];
const PAGE_ONE_MARKDOWN = `# Title\n<b>bold</b> & "q" 's\n![img](${OLD_IMAGE_URL})`;
const HISTORY = [
  { id: 31, content: 'first <draft> & "q"', compressed: false },
  // Long enough that Quire stores it deflated again (models/pages/versionText.ts).
  { id: 32, content: `second <version> & more ${'detail '.repeat(60)}`, compressed: true },
];

/** ShowDoc's item_change_log rows (ItemChangeLog::addLog); the last names an action it never logs. */
const CHANGE_LOG = [
  {
    id: 41,
    uid: 2,
    op_action_type: 'create',
    op_object_type: 'page',
    op_object_id: PAGES[0],
    op_object_name: 'Install',
    optime: '2024-01-02 03:04:05',
  },
  {
    id: 42,
    uid: 2,
    op_action_type: 'binding',
    op_object_type: 'member',
    op_object_id: 7,
    op_object_name: 'bob',
    optime: '2024-01-02 04:00:00',
  },
  {
    id: 43,
    uid: 7,
    op_action_type: 'update',
    op_object_type: 'page',
    op_object_id: PAGES[0],
    op_object_name: 'Install',
    optime: '2024-01-03 09:30:00',
  },
  {
    id: 44,
    uid: 7,
    op_action_type: 'teleport',
    op_object_type: 'page',
    op_object_id: PAGES[0],
    op_object_name: 'Install',
    optime: '2024-01-03 09:31:00',
  },
];

const dirs: string[] = [];
let dbFile: string;
let uploads: string;
let png: Buffer;

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('quire-showdoc-');
  dirs.push(dir);
  return dir;
}

async function quire(dataDir: string, ...args: string[]) {
  return runCli(args, { cwd: await tempDir(), env: { DATA_DIR: dataDir, ADMIN_PASSWORD: '' } });
}

/** A ShowDoc database in ShowDoc's schema, with one of everything the migration carries. */
async function buildShowdocDatabase(
  file: string,
  options: { broken?: boolean } = {},
): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(fs.readFileSync(path.join(__dirname, 'fixtures', 'showdoc-schema.sql'), 'utf8'));
  const insert = (table: string, row: Record<string, string | number>) => {
    const columns = Object.keys(row);
    db.run(
      `INSERT INTO "${table}" (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      Object.values(row),
    );
  };
  for (const u of USERS)
    insert('user', {
      uid: u.uid,
      username: u.username,
      groupid: u.groupid,
      password: u.bcrypt
        ? bcrypt.hashSync(u.password, 10).replace(/^\$2b\$/, '$2y$') // PHP password_hash
        : showdocHash(u.password, u.salt),
      salt: u.salt,
      reg_time: NOW,
    });
  insert('item', {
    item_id: ITEM,
    item_name: 'Public docs',
    uid: 2,
    username: 'alice',
    password: '',
    addtime: NOW,
  });
  insert('item', {
    item_id: SECRET_ITEM,
    item_name: 'Secret',
    uid: 2,
    username: 'alice',
    password: 'item-secret',
    addtime: NOW,
  });
  insert('catalog', {
    cat_id: CATS[0],
    cat_name: 'Guide',
    item_id: ITEM,
    level: 2,
    parent_cat_id: 0,
    addtime: NOW,
  });
  insert('catalog', {
    cat_id: CATS[1],
    cat_name: 'Setup',
    item_id: ITEM,
    level: 3,
    parent_cat_id: CATS[0],
    addtime: NOW,
  });
  insert('catalog', {
    cat_id: CATS[2],
    cat_name: 'Linux',
    item_id: ITEM,
    level: 4,
    parent_cat_id: CATS[1],
    addtime: NOW,
  });
  const pages = [
    {
      page_id: PAGES[0],
      item_id: ITEM,
      cat_id: CATS[2],
      page_title: 'Install',
      md: PAGE_ONE_MARKDOWN,
    },
    { page_id: PAGES[1], item_id: ITEM, cat_id: 0, page_title: 'Ping API', md: 'GET /ping <200>' },
    { page_id: PAGES[2], item_id: SECRET_ITEM, cat_id: 0, page_title: 'Keys', md: 'secret & safe' },
  ];
  for (const p of pages)
    insert('page', {
      page_id: p.page_id,
      author_uid: 2,
      author_username: 'alice',
      item_id: p.item_id,
      cat_id: p.cat_id,
      page_title: p.page_title,
      page_content: htmlspecialchars(p.md),
      addtime: NOW + 10,
      page_addtime: NOW,
    });
  for (const h of HISTORY) {
    const escaped = htmlspecialchars(h.content);
    insert('page_history', {
      page_history_id: h.id,
      page_id: PAGES[0],
      author_uid: 7,
      author_username: 'bob',
      item_id: ITEM,
      cat_id: CATS[2],
      page_title: 'Install',
      // ShowDoc's hosted edition compressed history (ContentCodec): base64(gzcompress()).
      page_content: h.compressed ? deflateSync(escaped).toString('base64') : escaped,
      page_comments: `v${h.id}`,
      s_number: 99,
      addtime: NOW + h.id,
    });
  }
  db.run(`UPDATE sqlite_sequence SET seq = ? WHERE name = 'page'`, [PAGE_SEQUENCE]);
  insert('item_member', {
    item_member_id: 5,
    item_id: ITEM,
    uid: 7,
    username: 'bob',
    member_group_id: 1,
    cat_id: 0,
    cat_ids: `${CATS[0]}`,
    addtime: NOW,
  });
  insert('team', { id: 4, team_name: 'Writers', uid: 2, username: 'alice', addtime: NOW });
  insert('team_member', { id: 6, team_id: 4, member_uid: 7, member_username: 'bob', addtime: NOW });
  insert('team_item', { id: 8, team_id: 4, item_id: SECRET_ITEM, addtime: NOW });
  insert('team_item_member', {
    id: 9,
    team_id: 4,
    item_id: SECRET_ITEM,
    member_group_id: 0,
    member_uid: 7,
    member_username: 'bob',
    addtime: NOW,
  });
  insert('item_group', {
    id: 3,
    uid: 2,
    group_name: 'Mine',
    item_ids: `${ITEM},${SECRET_ITEM}`,
    s_number: 1,
    created_at: '2024-01-02 03:04:05',
  });
  insert('item_star', {
    id: 2,
    uid: 7,
    item_id: ITEM,
    s_number: 0,
    created_at: '2024-01-02 03:04:05',
  });
  insert('template', {
    id: 12,
    uid: 2,
    username: 'alice',
    template_title: 'API',
    template_content: htmlspecialchars('| a | <b> |'),
    addtime: NOW,
  });
  insert('upload_file', {
    file_id: 21,
    sign: FILE_SIGN,
    display_name: 'abc.png',
    file_type: 'image/png',
    file_size: png.length,
    uid: 2,
    item_id: ITEM,
    page_id: PAGES[0],
    addtime: NOW,
    real_url: OLD_IMAGE_URL,
  });
  insert('upload_file', {
    file_id: 23,
    sign: md5('escape'),
    display_name: 'secret.txt',
    uid: 2,
    addtime: NOW,
    real_url: 'http://old.example.com/Public/Uploads/../../secret.txt',
  });
  insert('file_page', {
    id: 22,
    file_id: 21,
    page_id: PAGES[0],
    item_id: ITEM,
    addtime: String(NOW),
  });
  insert('mock', {
    id: 3,
    unique_key: MOCK_KEY,
    uid: 2,
    page_id: PAGES[1],
    item_id: ITEM,
    template: '{"ok":1}',
    path: '/ping',
    addtime: '2024-01-02 03:04:05',
  });
  insert('single_page', { id: 4, unique_key: SHARE_KEY, page_id: PAGES[1] });
  // The API workbench (RunApi side).
  insert('runapi_env', {
    id: 11,
    env_name: 'Dev',
    item_id: ITEM,
    uid: 2,
    addtime: '2024-01-02 03:04:05',
  });
  insert('item_variable', {
    id: 12,
    var_name: 'host',
    var_value: 'http://dev.example',
    uid: 2,
    item_id: ITEM,
    addtime: NOW,
    env_id: 11,
  });
  insert('runapi_global_param', {
    id: 13,
    item_id: ITEM,
    param_type: 'header',
    content_json_str: htmlspecialchars('[{"name":"X-App","value":"1"}]'),
  });
  insert('runapi_flow', {
    id: 14,
    flow_name: 'Smoke',
    uid: 2,
    username: 'alice',
    item_id: ITEM,
    env_id: 11,
    times: 2,
  });
  insert('runapi_flow_page', { id: 15, flow_id: 14, page_id: PAGES[0], s_number: 1 });
  insert('parameter_description_entry', {
    id: 'abc_1234',
    item_id: String(ITEM),
    name: 'user_id',
    type: 'int',
    description: 'User id',
    source: 'manual',
    status: 'permanent',
    usage_count: 3,
    quality_score: 0.46,
    created_by: '2',
  });
  insert('item_token', {
    id: 5,
    item_id: ITEM,
    api_key: API_KEY,
    api_token: API_TOKEN,
    addtime: NOW,
  });
  // Who follows PAGES[0] (alice created it, bob asked to be told), as ShowDoc's addSub wrote them;
  // a row without a user follows nothing and is left out.
  insert('subscription', {
    id: 51,
    uid: 2,
    object_id: PAGES[0],
    object_type: 'page',
    action_type: 'update',
    sub_time: '2024-01-02 03:04:05',
  });
  insert('subscription', {
    id: 52,
    uid: 7,
    object_id: PAGES[0],
    object_type: 'page',
    action_type: 'update',
    sub_time: '2024-01-03 08:00:00',
  });
  insert('subscription', { id: 53, uid: 0, object_id: PAGES[1], object_type: 'page' });
  for (const log of CHANGE_LOG) insert('item_change_log', { item_id: ITEM, remark: '', ...log });
  insert('kanban_activity_log', {
    id: 61,
    item_id: ITEM,
    page_id: PAGES[0],
    event_type: 'task_moved',
    event_data: '{"title":"A task","from_list_title":"To do","to_list_title":"Done"}',
    operator_uid: 2,
    addtime: NOW,
  });
  if (options.broken) {
    // A row Quire cannot take (a mock without its key)…
    insert('mock', { id: 9, unique_key: '', uid: 2, page_id: PAGES[0], item_id: ITEM });
    // …and a repeated membership (ShowDoc had no unique index), which is dropped, not refused.
    insert('item_member', {
      item_member_id: 15,
      item_id: ITEM,
      uid: 7,
      username: 'bob',
      addtime: NOW,
    });
  }
  fs.writeFileSync(file, db.export());
  db.close();
}

beforeAll(async () => {
  png = samples.png();
  const source = await tempDir();
  dbFile = path.join(source, 'showdoc.db.php');
  uploads = path.join(source, 'Public', 'Uploads');
  fs.mkdirSync(path.join(uploads, '2024-01-02'), { recursive: true });
  fs.writeFileSync(path.join(uploads, '2024-01-02', 'abc.png'), png);
  // Next to the uploads folder, where a crafted real_url would point.
  fs.writeFileSync(path.join(source, 'secret.txt'), 'not an upload');
  await buildShowdocDatabase(dbFile);
});

afterAll(async () => {
  await killAllChildren();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('import:showdoc', () => {
  let dataDir: string;
  let server: TestServer;

  beforeAll(async () => {
    dataDir = await tempDir();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('--dry-run prints the counts it would import and writes nothing', async () => {
    const dry = await quire(dataDir, 'import:showdoc', dbFile, '--uploads', uploads, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run, nothing written');
    expect(dry.stdout).toContain('  user: 3 rows');
    expect(dry.stdout).toContain('  page: 3 rows');
    expect(dry.stdout).toContain('  page_history: 2 rows');
    expect(dry.stdout).toContain('  subscription: 2 rows (1 rows Quire cannot hold left out)');
    expect(dry.stdout).toContain('  item_change_log: 3 rows (1 rows Quire cannot hold left out)');
    expect(dry.stdout).toContain('  kanban_activity_log: 1 rows');
    expect(dry.stdout).not.toMatch(/not migrated.*(subscription|item_change_log|kanban)/);
    // A real_url climbing out of the uploads folder is never read.
    expect(dry.stdout).toContain(
      '  files: 1 found, 1 missing\n    missing: secret.txt (file_id 23)',
    );
    await inspect(dataDir, async () => {
      expect(await User.countDocuments()).toBe(0);
      expect(await Item.countDocuments()).toBe(0);
      expect(await Page.countDocuments()).toBe(0);
    });
    expect(await filesUnder(path.join(dataDir, 'files'))).toEqual([]);
  });

  test('the import writes every table, a line per table on a non-terminal, and copies the file', async () => {
    const run = await quire(dataDir, 'import:showdoc', dbFile, '--uploads', uploads);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(run.stderr).toContain('  page: 3 rows written');
    expect(run.stderr).toContain('  single_page: 1 rows written');
    expect(run.stderr).toContain('  subscription: 2 rows written');
    expect(run.stderr).toContain('  item_change_log: 3 rows written');
    expect(run.stdout).toContain('Imported the ShowDoc site');
  });

  test('a second run is refused without --merge; with --merge the clashing ids stop it', async () => {
    const again = await quire(dataDir, 'import:showdoc', dbFile, '--uploads', uploads);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has items or accounts; use --merge/);
    const merged = await quire(dataDir, 'import:showdoc', dbFile, '--merge');
    expect(merged.code).toBe(1);
    expect(merged.stderr).toContain(`item.item_id already used in Quire: ${ITEM}, ${SECRET_ITEM}`);
    expect(merged.stderr).toContain('user.username already used in Quire');
    expect(merged.stderr).toContain('subscription.id already used in Quire: 51, 52');
    expect(merged.stderr).toContain('item_change_log.id already used in Quire: 41, 42, 43');
    await inspect(dataDir, async () => {
      expect(await Page.countDocuments()).toBe(3);
      expect(await UploadFile.countDocuments()).toBe(2);
      expect(await Subscription.countDocuments()).toBe(2);
      expect(await ItemChangeLog.countDocuments()).toBe(3);
    });
  });

  describe('the migrated site', () => {
    beforeAll(async () => {
      server = await startTestServer({ dataDir });
    });

    async function captcha() {
      const { captcha_id } = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
      const row = await Captcha.findOne({ captcha_id }).lean();
      return { captcha_id, captcha: row!.captcha };
    }
    async function login(username: string, password: string) {
      return server.api.call('user/loginByVerify', { username, password, ...(await captcha()) });
    }
    async function tokenOf(username: string): Promise<string> {
      const user = USERS.find((u) => u.username === username)!;
      const answer = await login(username, user.password);
      return (answer.body.data as { user_token: string }).user_token;
    }

    test('every user logs in with the ShowDoc password; legacy hashes become bcrypt', async () => {
      for (const u of USERS) {
        expect((await login(u.username, `${u.password}-wrong`)).body.error_code).toBe(10210);
        const answer = await login(u.username, u.password);
        expect(answer.body).toMatchObject({
          error_code: 0,
          data: { uid: String(u.uid), username: u.username },
        });
        const stored = await User.findOne({ uid: u.uid }).lean();
        expect(stored!.password).toMatch(/^\$2[aby]\$/);
        expect(stored!.groupid).toBe(u.groupid);
      }
      // The upgraded hash still takes the same password.
      expect((await login('alice', 'alice-pass')).body.error_code).toBe(0);
    });

    test('items, catalogs and pages keep their ids; page text reads back as ShowDoc served it', async () => {
      expect(
        (await Item.find({}, { item_id: 1, _id: 0 }).sort({ item_id: 1 }).lean()).map(
          (i) => i.item_id,
        ),
      ).toEqual([ITEM, SECRET_ITEM]);
      const cats = await Catalog.find(
        { item_id: ITEM },
        { _id: 0, cat_id: 1, parent_cat_id: 1, level: 1, cat_name: 1 },
      )
        .sort({ cat_id: 1 })
        .lean();
      expect(cats).toEqual([
        { cat_id: CATS[0], cat_name: 'Guide', parent_cat_id: 0, level: 2 },
        { cat_id: CATS[1], cat_name: 'Setup', parent_cat_id: CATS[0], level: 3 },
        { cat_id: CATS[2], cat_name: 'Linux', parent_cat_id: CATS[1], level: 4 },
      ]);
      const alice = server.api.withToken(await tokenOf('alice'));
      const info = await alice.ok<Record<string, string>>('page/info', { page_id: PAGES[0] });
      expect(info).toMatchObject({
        page_id: String(PAGES[0]),
        item_id: String(ITEM),
        cat_id: String(CATS[2]),
        page_title: 'Install',
      });
      // Stored raw; the old /Public/Uploads link now points at the migrated file by its sign.
      const page = await Page.findOne({ page_id: PAGES[0] }).lean();
      const expected = PAGE_ONE_MARKDOWN.replace(
        OLD_IMAGE_URL,
        `/server/index.php?s=/api/attachment/visitFile&sign=${FILE_SIGN}`,
      );
      expect(page!.page_content).toBe(expected);
      expect(info.page_content).toBe(htmlspecialchars(expected));
      expect(Number(info.attachment_count)).toBe(1);

      const history = await alice.ok<Array<Record<string, string>>>('page/history', {
        page_id: PAGES[0],
      });
      expect(history.map((h) => [h.page_history_id, h.page_comments])).toEqual([
        ['32', 'v32'],
        ['31', 'v31'],
      ]);
      const rows = await PageHistory.find({ page_id: PAGES[0] })
        .sort({ page_history_id: 1 })
        .lean();
      expect(rows.map((r) => versionText(r))).toEqual(HISTORY.map((h) => h.content));
      // The long version is stored as Quire's own saves store it; the API gives its text.
      expect([rows[0].page_content_z, rows[1].page_content]).toEqual([undefined, '']);
      expect(history.map((h) => unescapeFromClient(h.page_content))).toEqual(
        HISTORY.map((h) => h.content).reverse(),
      );
    });

    test('members, teams, groups, stars and the template come over row for row', async () => {
      expect(
        await ItemMember.find(
          {},
          { _id: 0, item_member_id: 1, item_id: 1, uid: 1, member_group_id: 1, cat_ids: 1 },
        ).lean(),
      ).toEqual([
        { item_member_id: 5, item_id: ITEM, uid: 7, member_group_id: 1, cat_ids: [CATS[0]] },
      ]);
      expect(await TeamMember.countDocuments({ id: 6, team_id: 4, member_uid: 7 })).toBe(1);
      expect(
        await TeamItemMember.countDocuments({
          id: 9,
          item_id: SECRET_ITEM,
          member_uid: 7,
          member_group_id: 0,
        }),
      ).toBe(1);
      expect(await ItemStar.countDocuments({ id: 2, uid: 7, item_id: ITEM })).toBe(1);
      const bob = server.api.withToken(await tokenOf('bob'));
      // Through the team, bob reads the password-protected item without its password.
      const secret = await bob.ok<Record<string, string>>('page/info', { page_id: PAGES[2] });
      expect(secret.page_content).toBe('secret &amp; safe');
      const groups = await server.api
        .withToken(await tokenOf('alice'))
        .ok<Array<Record<string, unknown>>>('itemGroup/getList');
      expect(groups.map((g) => [String(g.id), g.group_name, g.item_ids])).toEqual([
        ['3', 'Mine', `${ITEM},${SECRET_ITEM}`],
      ]);
      const template = await server.api
        .withToken(await tokenOf('alice'))
        .ok<Array<Record<string, string>>>('template/getMyList');
      expect(template.map((t) => [String(t.id), t.template_title])).toEqual([['12', 'API']]);
    });

    test('RunApi environments, variables, global params, flows and the parameter library come over', async () => {
      const alice = server.api.withToken(await tokenOf('alice'));
      const envs = await alice.ok<Array<Record<string, unknown>>>('runapi/getEnvList', {
        item_id: ITEM,
      });
      expect(envs.map((e) => [e.id, e.env_name])).toEqual([[11, 'Dev']]);
      const vars = await alice.ok<Array<Record<string, unknown>>>('itemVariable/getList', {
        item_id: ITEM,
        env_id: 11,
      });
      expect(vars.map((v) => [v.id, v.var_name, v.var_value])).toEqual([
        [12, 'host', 'http://dev.example'],
      ]);
      const globals = await alice.ok<Record<string, unknown>>('runapi/getGlobalParam', {
        item_id: ITEM,
      });
      expect(globals.header).toEqual([{ name: 'X-App', value: '1' }]);
      const flows = await alice.ok<Array<Record<string, unknown>>>('flow/getList', {
        item_id: ITEM,
      });
      expect(flows.map((f) => [f.id, f.flow_name, f.env_id, f.times])).toEqual([
        [14, 'Smoke', 11, 2],
      ]);
      const steps = await alice.ok<Array<Record<string, unknown>>>('flow/getFlowPageList', {
        flow_id: 14,
      });
      expect(steps.map((p) => [p.id, p.page_id, p.enabled])).toEqual([[15, PAGES[0], 1]]);
      const lib = await alice.ok<{ data: Array<Record<string, unknown>> }>(
        'paramDescLib/getEntries',
        { itemId: ITEM },
      );
      expect(lib.data.map((e) => [e.id, e.name, e.usageCount])).toEqual([
        ['abc_1234', 'user_id', 3],
      ]);
      // New rows continue after the imported ids.
      const added = await alice.ok<{ env_id: number }>('runapi/addEnv', {
        item_id: ITEM,
        env_name: 'Prod',
      });
      expect(added.env_id).toBeGreaterThan(11);
    });

    test('the item password is hashed and still opens the item', async () => {
      const stored = await Item.findOne({ item_id: SECRET_ITEM }).lean();
      expect(stored!.password).toMatch(/^\$2[aby]\$/);
      expect(
        (
          await server.api.fail('item/pwd', {
            item_id: SECRET_ITEM,
            password: 'nope',
            ...(await captcha()),
          })
        ).error_code,
      ).toBe(10010);
      await server.api.ok('item/pwd', {
        item_id: SECRET_ITEM,
        password: 'item-secret',
        ...(await captcha()),
      });
    });

    test('the attachment, the share key, the mock and the item token work as before', async () => {
      const file = await server.request(
        `/server/index.php?s=/api/attachment/visitFile&sign=${FILE_SIGN}`,
      );
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
      expect(
        await UploadFile.findOne(
          { file_id: 21 },
          { _id: 0, file_type: 1, file_size: 1, item_id: 1, page_id: 1 },
        ).lean(),
      ).toEqual({
        file_type: 'image/png',
        file_size: png.length,
        item_id: ITEM,
        page_id: PAGES[0],
      });
      expect(await FilePage.countDocuments({ id: 22, file_id: 21, page_id: PAGES[0] })).toBe(1);

      const shared = await server.api.ok<Record<string, string>>('page/infoByKey', {
        unique_key: SHARE_KEY,
      });
      expect(shared.page_id).toBe(String(PAGES[1]));
      expect(await SinglePage.countDocuments({ id: 4 })).toBe(1);

      const mock = await server.request(`/server/mock-data/${MOCK_KEY}`);
      expect(await mock.json()).toEqual({ ok: 1 });

      const byScript = await server.api.ok<{ page_id: string }>('open/getPage', {
        api_key: API_KEY,
        api_token: API_TOKEN,
        page_title: 'Ping API',
      });
      expect(byScript.page_id).toBe(String(PAGES[1]));
    });

    test('the item change log reads back through item/getChangeLog, row for row', async () => {
      const alice = server.api.withToken(await tokenOf('alice'));
      const log = await alice.ok<{ total: number; list: Array<Record<string, unknown>> }>(
        'item/getChangeLog',
        { item_id: ITEM },
      );
      expect(Number(log.total)).toBe(3);
      expect(
        log.list.map((row) => [
          String(row.id),
          String(row.uid),
          row.op_action_type,
          row.op_object_type,
          String(row.op_object_id),
          row.op_object_name,
          row.optime,
          row.username,
        ]),
      ).toEqual(
        CHANGE_LOG.slice(0, 3)
          .reverse()
          .map((c) => [
            String(c.id),
            String(c.uid),
            c.op_action_type,
            c.op_object_type,
            String(c.op_object_id),
            c.op_object_name,
            c.optime,
            c.uid === 2 ? 'alice' : 'bob',
          ]),
      );
    });

    test('subscriptions answer through subscription/getPageList, and a save with notify reminds the migrated subscribers', async () => {
      const alice = server.api.withToken(await tokenOf('alice'));
      const bob = server.api.withToken(await tokenOf('bob'));
      const list = await alice.ok<Array<Record<string, unknown>>>('subscription/getPageList', {
        page_id: PAGES[0],
      });
      expect(
        list
          .map((row) => [String(row.id), String(row.uid), row.username, row.sub_time])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ).toEqual([
        ['51', '2', 'alice', '2024-01-02 03:04:05'],
        ['52', '7', 'bob', '2024-01-03 08:00:00'],
      ]);
      const unreadBefore = await bob.ok<{ remind: unknown }>('message/getUnread');
      expect(unreadBefore.remind).toEqual([]);
      await alice.ok('page/save', {
        page_id: PAGES[0],
        item_id: ITEM,
        cat_id: CATS[2],
        page_title: 'Install',
        page_content: 'Install, revised',
        is_notify: 1,
        notify_content: 'Install was revised',
      });
      const content = await MessageContent.findOne({
        message_content: 'Install was revised',
      }).lean();
      expect(content).not.toBeNull();
      expect(await Message.distinct('to_uid', { message_content_id: content!.id })).toContain(7);
      const unread = await bob.ok<{ remind: Record<string, unknown> | [] }>('message/getUnread');
      expect(unread.remind).toMatchObject({ message_content_id: String(content!.id) });
      // The save is logged after the migrated rows, with the next id.
      const log = await alice.ok<{ list: Array<Record<string, unknown>> }>('item/getChangeLog', {
        item_id: ITEM,
      });
      expect(Number(log.list[0].id)).toBeGreaterThan(43);
    });

    test("new ids continue after the highest imported ones (and ShowDoc's page sequence)", async () => {
      const alice = server.api.withToken(await tokenOf('alice'));
      const saved = await alice.ok<{ page_id: string }>('page/save', {
        item_id: ITEM,
        page_title: 'New',
        page_content: 'x',
        cat_id: 0,
      });
      expect(Number(saved.page_id)).toBeGreaterThan(PAGE_SEQUENCE);
      await alice.ok('catalog/save', { item_id: ITEM, cat_name: 'More' });
      const made = await Catalog.findOne({ item_id: ITEM, cat_name: 'More' }).lean();
      expect(made!.cat_id).toBeGreaterThan(CATS[2]);
    });
  });
});

describe('import:showdoc on a Quire that already started once', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  test("through the running server: ShowDoc's accounts replace the first-start admin", async () => {
    server = await startTestServer({ env: { ADMIN_PASSWORD: 'quire-first-admin' } });
    const run = await quire(server.dataDir, 'import:showdoc', dbFile);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("running server's engine");
    expect(run.stdout).toContain('the first-start admin "showdoc" gives way');
    // Without --uploads the attachment row comes over and is reported as missing its file.
    expect(run.stdout).toContain('files: 0 found, 2 missing');
    const { captcha_id } = await server.api.ok<{ captcha_id: number }>('common/createCaptcha');
    const { captcha } = (await Captcha.findOne({ captcha_id }).lean())!;
    const answer = await server.api.call('user/loginByVerify', {
      username: 'showdoc',
      password: 'admin-old-pass',
      captcha_id,
      captcha,
    });
    expect(answer.body).toMatchObject({ error_code: 0, data: { uid: '1', groupid: '1' } });
    expect(await User.countDocuments()).toBe(USERS.length);
  });
});

describe('import:showdoc with rows Quire refuses', () => {
  test('the dry run names them; the import writes nothing and copies no file', async () => {
    const brokenDb = path.join(await tempDir(), 'showdoc.db.php');
    await buildShowdocDatabase(brokenDb, { broken: true });
    const dataDir = await tempDir();
    const dry = await quire(dataDir, 'import:showdoc', brokenDb, '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('  item_member: 1 rows (1 repeated rows left out)');
    expect(dry.stdout).toMatch(/It would be refused:\n {2}mock row id=9: .*unique_key/);
    const run = await quire(dataDir, 'import:showdoc', brokenDb, '--uploads', uploads);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Nothing was imported:\n {2}mock row id=9: .*unique_key/);
    await inspect(dataDir, async () => {
      for (const model of [User, Item, Catalog, Page, PageHistory, UploadFile, SinglePage])
        expect(await (model as typeof User).countDocuments()).toBe(0);
    });
    expect(
      (await filesUnder(path.join(dataDir, 'files'))).filter((f) => !f.includes('staging')),
    ).toEqual([]);
  });
});
