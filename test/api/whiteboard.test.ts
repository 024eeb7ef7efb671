/**
 * Whiteboard items (type 5) over real HTTP: the page holds ShowDoc's whiteboard format (fabric.js
 * canvas JSON beside `__canvasSize`) as ShowDoc's client saves it (URL-encoded) and reads it back
 * (HTML-escaped once); a ShowDoc-made whiteboard export (built here in ShowDoc's zip layout, the
 * page content HTML-escaped in info.json as ShowDoc writes it) imports as a whiteboard item that
 * opens — over REST and as its live whiteboard document — and exports back in the same layout;
 * search finds what is written on a board (a text object's text), not its geometry.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { Page } from '../../models/pages';
import { whiteboardDocumentName } from '../../realtime/collabProtocol';
import { boardOfDoc } from '../../realtime/whiteboardProtocol';
import { serverSuite } from '../helpers/apiSuite';
import { closeAllCollabClients, openPage } from '../helpers/collab';
import { download } from '../helpers/exportFixture';
import { postMultipart } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite({ teardown: () => closeAllCollabClients() });
let owner: TestUser;
afterAll(() => closeAllCollabClients());
beforeAll(async () => {
  owner = await makeUser();
});

/** A board as ShowDoc 3.9's whiteboard (fabric 4.6) saves it. */
function showdocBoard(words: string) {
  return {
    __canvasSize: { width: 1900, height: 950 },
    version: '4.6.0',
    objects: [
      {
        type: 'path',
        version: '4.6.0',
        left: 118,
        top: 208,
        width: 215,
        height: 95,
        fill: null,
        stroke: '#2c3e50',
        strokeWidth: 3,
        path: [
          ['M', 120, 210],
          ['Q', 220, 200, 320, 210],
        ],
      },
      {
        type: 'i-text',
        version: '4.6.0',
        originX: 'center',
        originY: 'center',
        left: 220,
        top: 252,
        fill: '#2c3e50',
        text: words,
        fontSize: 22,
      },
    ],
  };
}

/** PHP htmlspecialchars, as ShowDoc stores and exports page text. */
const htmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlUnescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const api = () => suite.server.api.withToken(owner.user_token);

async function newBoard(name: string): Promise<{ itemId: number; pageId: number }> {
  const { item_id } = await api().ok<{ item_id: number }>('item/add', {
    item_name: name,
    item_type: 5,
  });
  const info = await api().ok<{ menu: { pages: { page_id: string }[] } }>('item/info', {
    item_id,
  });
  return { itemId: item_id, pageId: Number(info.menu.pages[0].page_id) };
}

describe('the whiteboard page format', () => {
  test('a new whiteboard item has its one page; ShowDoc’s client saves and reads the canvas JSON', async () => {
    const { itemId, pageId } = await newBoard('Sketches');
    const board = showdocBoard('Ship it <today> & "tomorrow"');
    const json = JSON.stringify(board);
    // ShowDoc's whiteboard posts page/save with the JSON URL-encoded.
    await api().ok('page/save', {
      page_id: pageId,
      item_id: itemId,
      page_title: 'Sketches',
      page_content: encodeURIComponent(json),
      is_urlencode: 1,
    });
    const page = await api().ok<{ page_content: string }>('page/info', { page_id: pageId });
    expect(JSON.parse(htmlUnescape(page.page_content))).toEqual(board);
    expect((await Page.findOne({ page_id: pageId }).lean())!.page_content).toBe(json);
    const info = await api().ok<{ item_type: string }>('item/info', { item_id: itemId });
    expect(info.item_type).toBe('5');
  });
});

describe('a ShowDoc-made whiteboard', () => {
  test('imports from ShowDoc’s zip, opens over REST and as a live board, and exports back', async () => {
    const board = showdocBoard('Retro: what went well');
    const info = {
      item_type: '5',
      item_name: 'Team retro board',
      item_description: '',
      password: '',
      pages: {
        pages: [
          {
            page_title: 'Team retro board',
            cat_id: '0',
            page_content: htmlEscape(JSON.stringify(board)),
            s_number: '99',
            page_comments: '',
          },
        ],
        catalogs: [],
      },
    };
    const zip = Buffer.from(
      zipSync({
        'prefix_info.json': strToU8(JSON.stringify(info)),
        'prefix_readme.md': strToU8('readme'),
        'prefix_0123456789abcdef0123456789abcdef.md': strToU8(JSON.stringify(board)),
      }),
    );
    const answer = await postMultipart(suite.server.url, 'import/auto', [
      { name: 'user_token', value: owner.user_token },
      { name: 'file', filename: 'whiteboard.zip', content: zip },
    ]);
    expect(answer.body.error_code).toBe(0);
    const itemId = (answer.body.data as { item_id: number }).item_id;

    const item = await api().ok<{ item_type: string; menu: { pages: { page_id: string }[] } }>(
      'item/info',
      { item_id: itemId },
    );
    expect(item.item_type).toBe('5');
    const pageId = Number(item.menu.pages[0].page_id);
    const page = await api().ok<{ page_content: string }>('page/info', { page_id: pageId });
    expect(JSON.parse(htmlUnescape(page.page_content))).toEqual(board);

    // Opens as the whiteboard's live document, with the board's objects in order.
    const live = openPage(suite.server.url, pageId, owner.user_token, {
      name: whiteboardDocumentName(pageId),
    });
    expect(await live.opened).toBe('read-write');
    await live.synced;
    const opened = boardOfDoc(live.doc);
    expect(opened.__canvasSize).toEqual(board.__canvasSize);
    expect(opened.objects.map((o) => o.type)).toEqual(['path', 'i-text']);
    expect(opened.objects[1]).toMatchObject({ text: 'Retro: what went well' });
    live.destroy();

    // And exports in ShowDoc's layout: info.json names type 5 and carries the JSON escaped.
    const { bytes } = await download(suite.server, 'export/markdown', {
      item_id: itemId,
      user_token: owner.user_token,
    });
    const files = unzipSync(bytes);
    const exported = JSON.parse(strFromU8(files['info.json'])) as {
      item_type: number | string;
      pages: { pages: { page_content: string }[] };
    };
    expect(String(exported.item_type)).toBe('5');
    expect(JSON.parse(htmlUnescape(exported.pages.pages[0].page_content))).toEqual(board);
  });
});

describe('search on whiteboards', () => {
  test('finds a text object’s text, with it as the snippet; not the canvas geometry', async () => {
    const { itemId, pageId } = await newBoard('Architecture');
    await api().ok('page/save', {
      page_id: pageId,
      item_id: itemId,
      page_title: 'Architecture',
      page_content: JSON.stringify(showdocBoard('Quasar gateway')),
    });
    const hit = await api().ok<{ pages: { page_id: string; search_content: string }[] }>(
      'item/search',
      { item_id: itemId, keyword: 'quasar' },
    );
    expect(hit.pages.map((p) => Number(p.page_id))).toEqual([pageId]);
    expect(hit.pages[0].search_content).toContain('Quasar gateway');
    expect(hit.pages[0].search_content).not.toContain('strokeWidth');
    const geometry = await api().ok<{ pages: unknown[] }>('item/search', {
      item_id: itemId,
      keyword: 'strokeWidth',
    });
    expect(geometry.pages).toEqual([]);
  });
});
