/**
 * Ranked item/search over real HTTP: queries as words and "phrases", relevance order on fixtures
 * whose right answer is known (title hits first, shorter pages first, the exact phrase first, CJK),
 * snippets with highlight ranges around the best match, "skip code blocks", cross-item results
 * grouped by item, and catalog restrictions — for pages and for the attachments whose text is
 * extracted at upload (a PDF, a DOCX, an XLSX and a text file built by the test).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePages } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { eventually } from '../helpers/embedded';
import { makeDocx, makePdf, makeXlsx } from '../helpers/documents';
import { uploadAs } from '../helpers/uploads';
import { makeUsers, type TestUser } from '../helpers/users';

type Range = [number, number];
interface Hit {
  page_id: string;
  page_title: string;
  item_id: number;
  search_content: string;
  snippet: string;
  highlights: Range[];
  title_highlights: Range[];
  score: number;
}
interface AttachmentHit {
  type: string;
  file_id: number;
  display_name: string;
  url: string;
  item_id: number;
  page_id: number;
  page_title: string;
  snippet: string;
  highlights: Range[];
}
interface Result {
  item_id: number;
  pages: Hit[];
  attachments: AttachmentHit[];
}

const suite = serverSuite();
const { as } = suite;
let owner: TestUser, restricted: TestUser;
let itemId: number, otherItem: number;
let openCat: number, closedCat: number;
let openPage: number, closedPage: number;

const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i % 37}`).join(' ');

beforeAll(async () => {
  [owner, restricted] = await makeUsers(2);
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Fauna' }));
  ({ item_id: otherItem } = await makeItem(owner, { item_name: 'Flora' }));
  openCat = await makeCatalog(owner, itemId, 'Open');
  closedCat = await makeCatalog(owner, itemId, 'Closed');
  await addMember(itemId, restricted, 0, [openCat]);
  const pages = await makePages(owner, itemId, [
    // title hit vs many body hits
    { title: 'Animals', content: 'quokka quokka quokka quokka quokka everywhere', catId: openCat },
    { title: 'Quokka', content: 'A small marsupial.', catId: openCat },
    // multi-word, any order
    { title: 'Rottnest', content: 'Here is the habitat of the quokka, an island.', catId: openCat },
    // length normalisation: the same single hit, a short page and a long one
    { title: 'Long read', content: `wallaby ${filler(300)}`, catId: openCat },
    { title: 'Short read', content: 'The wallaby hops.', catId: openCat },
    // the exact phrase: same words, same length; the phrase page is made second (it would lose
    // the tie on id without the boost)
    { title: 'Note A', content: 'habitat is here, numbat notes', catId: openCat },
    { title: 'Note B', content: 'notes: numbat habitat is here', catId: openCat },
    // CJK: a title hit, body hits, and the same characters in another order
    { title: '其他', content: '数据库数据库数据库的内容', catId: openCat },
    { title: '数据库指南', content: '这是一份指南。', catId: openCat },
    { title: '乱序', content: '库和数据是两回事', catId: openCat },
    // code blocks: the word only in code, and in prose
    {
      title: 'Code sample',
      content: 'Intro text.\n\n```js\nfrobnicate(widget);\nfrobnicate(again);\n```\n',
      catId: openCat,
    },
    { title: 'Prose sample', content: 'You frobnicate a widget by hand.', catId: openCat },
    // a long page: the best window is where both words meet, far from the first hit
    {
      title: 'Deep',
      content: `platypus first. ${filler(120)} the platypus burrow is near the river. ${filler(40)}`,
      catId: openCat,
    },
    // markup stays text
    { title: 'Markup', content: 'Beware <script>alert(1)</script> echidna', catId: openCat },
    // outside the restriction
    { title: 'Closed quokka', content: 'quokka secrets', catId: closedCat },
  ]);
  openPage = pages[1].page_id;
  closedPage = pages[pages.length - 1].page_id;
  await makePages(owner, otherItem, [
    { title: 'Garden', content: 'a quokka ate the garden' },
    { title: 'Quokka ferns', content: 'ferns' },
  ]);
});

const search = (user: TestUser, params: Record<string, string | number>) =>
  as(user).ok<Result>('item/search', { item_id: itemId, ...params });
const titles = (r: Result) => r.pages.map((p) => p.page_title);
const marked = (text: string, ranges: Range[]) => ranges.map(([a, b]) => text.slice(a, b));

describe('ranking', () => {
  test('a title hit ranks above a page that only repeats the word in its body', async () => {
    const order = titles(await search(owner, { keyword: 'quokka' }));
    // the two pages with the word in their title, then the body hits (five in "Animals")
    expect(order.slice(0, 2).sort()).toEqual(['Closed quokka', 'Quokka']);
    expect(order.slice(2)).toEqual(['Animals', 'Rottnest']);
  });

  test('several words: all must appear, in any order ("quokka habitat" finds "the habitat of the quokka")', async () => {
    expect(titles(await search(owner, { keyword: 'quokka habitat' }))).toEqual(['Rottnest']);
    expect(titles(await search(owner, { keyword: 'habitat quokka island' }))).toEqual(['Rottnest']);
    expect(titles(await search(owner, { keyword: 'quokka platypus' }))).toEqual([]);
  });

  test('a quoted phrase must appear as written', async () => {
    expect(titles(await search(owner, { keyword: '"habitat of the quokka"' }))).toEqual([
      'Rottnest',
    ]);
    expect(titles(await search(owner, { keyword: '"quokka habitat"' }))).toEqual([]);
    expect(titles(await search(owner, { keyword: '"numbat habitat"' }))).toEqual(['Note B']);
  });

  test('the bare words found together as typed rank first (exact phrase boost)', async () => {
    expect(titles(await search(owner, { keyword: 'numbat habitat' }))).toEqual([
      'Note B',
      'Note A',
    ]);
  });

  test('length-normalised: one hit in a short page beats one hit in a long page', async () => {
    expect(titles(await search(owner, { keyword: 'wallaby' }))).toEqual([
      'Short read',
      'Long read',
    ]);
  });

  test('CJK: the title hit first, then by hits; characters in another order are no match', async () => {
    expect(titles(await search(owner, { keyword: '数据库' }))).toEqual(['数据库指南', '其他']);
  });

  test('scores are returned and fall along the order', async () => {
    const { pages } = await search(owner, { keyword: 'wallaby' });
    expect(pages[0].score).toBeGreaterThan(pages[1].score);
  });
});

describe('snippets', () => {
  test('the snippet is around the best match, and its highlights are the matched words', async () => {
    const [hit] = (await search(owner, { keyword: 'platypus river' })).pages;
    expect(hit.page_title).toBe('Deep');
    expect(hit.snippet).toContain('the platypus burrow is near the river');
    expect(marked(hit.snippet, hit.highlights).map((s) => s.toLowerCase())).toEqual([
      'platypus',
      'river',
    ]);
    // ShowDoc's search_content still starts at the first hit
    expect(hit.search_content.startsWith('...platypus first.')).toBe(true);
  });

  test('title highlights mark the words in the title, whatever their case', async () => {
    const hit = (await search(owner, { keyword: 'QUOKKA' })).pages.find(
      (p) => p.page_title === 'Quokka',
    )!;
    expect(marked(hit.page_title, hit.title_highlights)).toEqual(['Quokka']);
  });

  test('the snippet is plain text: markup in a page is neither run nor escaped twice', async () => {
    const [hit] = (await search(owner, { keyword: 'echidna' })).pages;
    expect(hit.snippet).toBe('Beware <script>alert(1)</script> echidna');
    expect(marked(hit.snippet, hit.highlights)).toEqual(['echidna']);
  });
});

describe('skip code blocks', () => {
  test('without skip_code code counts, below prose; with it, code-only pages are not found', async () => {
    expect(titles(await search(owner, { keyword: 'frobnicate' }))).toEqual([
      'Prose sample',
      'Code sample',
    ]);
    expect(titles(await search(owner, { keyword: 'frobnicate', skip_code: 1 }))).toEqual([
      'Prose sample',
    ]);
    const [hit] = (await search(owner, { keyword: 'intro frobnicate', skip_code: 1 })).pages ?? [];
    expect(hit).toBeUndefined();
  });
});

describe('across items and access', () => {
  test('without item_id: every readable item, each item’s hits together and in rank order', async () => {
    const result = await as(owner).ok<Result>('item/search', { keyword: 'quokka' });
    const items = result.pages.map((p) => p.item_id);
    // grouped: once an item's hits end, it does not come back
    const runs = items.filter((id, i) => i === 0 || items[i - 1] !== id);
    expect(new Set(runs).size).toBe(runs.length);
    expect(new Set(items)).toEqual(new Set([itemId, otherItem]));
    const flora = result.pages.filter((p) => p.item_id === otherItem).map((p) => p.page_title);
    expect(flora).toEqual(['Quokka ferns', 'Garden']);
  });

  test('a restricted member finds nothing outside their catalogs', async () => {
    expect(titles(await search(owner, { keyword: 'quokka' }))).toContain('Closed quokka');
    const mine = titles(await search(restricted, { keyword: 'quokka' }));
    expect(mine).not.toContain('Closed quokka');
    expect(mine[0]).toBe('Quokka');
    expect(titles(await search(restricted, { keyword: 'secrets' }))).toEqual([]);
  });
});

describe('attachments', () => {
  let pdfId: number, docxId: number, txtId: number, xlsxId: number;
  let pdfSign: string;

  beforeAll(async () => {
    const url = suite.server.url;
    ({ file_id: pdfId, sign: pdfSign } = await uploadAs(
      url,
      owner,
      'field-notes.pdf',
      makePdf(['Observed the bandicoot habitat at dawn.', 'Nothing else to report.']),
      { item_id: itemId, page_id: openPage },
    ));
    ({ file_id: docxId } = await uploadAs(
      url,
      owner,
      'secret-plan.docx',
      await makeDocx(['The bandicoot census', 'is confidential.']),
      { item_id: itemId, page_id: closedPage },
    ));
    ({ file_id: txtId } = await uploadAs(
      url,
      owner,
      'readme.md',
      Buffer.from('# Readme\n\nFeeding the potoroo twice a day.\n'),
      { item_id: itemId },
    ));
    ({ file_id: xlsxId } = await uploadAs(
      url,
      owner,
      'counts.xlsx',
      await makeXlsx([
        ['Species', 'Count'],
        ['dunnart', 17],
      ]),
      { item_id: itemId, page_id: openPage },
    ));
  });

  const files = async (user: TestUser, keyword: string) =>
    (await search(user, { keyword })).attachments.map((a) => a.file_id).sort();

  test('the text of a PDF, a DOCX, an XLSX and a Markdown file is found, with a link to the file', async () => {
    await eventually(
      async () => expect(await files(owner, 'bandicoot')).toEqual([pdfId, docxId].sort()),
      { timeoutMs: 60_000, intervalMs: 300 },
    );
    await eventually(async () => expect(await files(owner, 'potoroo')).toEqual([txtId]), {
      timeoutMs: 60_000,
      intervalMs: 300,
    });
    await eventually(async () => expect(await files(owner, 'dunnart')).toEqual([xlsxId]), {
      timeoutMs: 60_000,
      intervalMs: 300,
    });
    const result = await search(owner, { keyword: 'bandicoot habitat' });
    expect(result.attachments).toHaveLength(1);
    const [hit] = result.attachments;
    expect(hit).toMatchObject({
      type: 'attachment',
      file_id: pdfId,
      display_name: 'field-notes.pdf',
      item_id: itemId,
      page_id: openPage,
      page_title: 'Quokka',
    });
    expect(hit.url).toBe(`/server/?s=/api/attachment/visitFile&sign=${pdfSign}`);
    expect(marked(hit.snippet, hit.highlights)).toEqual(['bandicoot', 'habitat']);
  }, 120_000);

  test('a restricted member finds only attachments of pages they may read (and of the item)', async () => {
    await eventually(async () => expect(await files(owner, 'bandicoot')).toHaveLength(2), {
      timeoutMs: 60_000,
      intervalMs: 300,
    });
    expect(await files(restricted, 'bandicoot')).toEqual([pdfId]);
    expect(await files(restricted, 'confidential')).toEqual([]);
    expect(await files(restricted, 'potoroo')).toEqual([txtId]);
  }, 90_000);

  test('deleting a file takes it out of search', async () => {
    await eventually(async () => expect(await files(owner, 'dunnart')).toEqual([xlsxId]), {
      timeoutMs: 60_000,
      intervalMs: 300,
    });
    await as(owner).ok('attachment/deleteMyAttachment', { file_id: xlsxId });
    expect(await files(owner, 'dunnart')).toEqual([]);
  }, 90_000);
});
