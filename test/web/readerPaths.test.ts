/**
 * The reader address as the entry reads it to start the reader's requests early (issue #22):
 * the same addresses the route table gives the reader, nothing else.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@jest/globals';
import { OTHER_ROUTE_SEGMENTS, readerAddress } from '../../web/features/reader/paths';

test("the other routes' first segments are exactly those of web/App.tsx's route table", () => {
  const app = readFileSync(new URL('../../web/App.tsx', import.meta.url), 'utf8');
  const firsts = [...app.matchAll(/path="\/([^/":*]+)/g)].map((m) => m[1]);
  expect(new Set(firsts)).toEqual(new Set(OTHER_ROUTE_SEGMENTS));
});

test('an item, an item and page, behind a language code or not, and ?page_id= are reader addresses', () => {
  expect(readerAddress('/123', '')).toEqual({ item: '123', page: null });
  expect(readerAddress('/handbook/456', '')).toEqual({ item: 'handbook', page: '456' });
  expect(readerAddress('/en/handbook/intro', '')).toEqual({ item: 'handbook', page: 'intro' });
  expect(readerAddress('/cn/123', '')).toEqual({ item: '123', page: null });
  expect(readerAddress('/123', '?page_id=7')).toEqual({ item: '123', page: '7' });
  expect(readerAddress('/123/8', '?page_id=7')).toEqual({ item: '123', page: '8' });
  // A lone language code is an item's address (the route table reads it as /:item).
  expect(readerAddress('/en', '')).toEqual({ item: 'en', page: null });
  expect(readerAddress('/%E6%89%8B%E5%86%8C', '')).toEqual({ item: '手册', page: null });
});

test('the start page, workspace, editor, share and deeper addresses are not', () => {
  for (const path of [
    '/',
    '/item/index',
    '/user/login',
    '/prices',
    '/page/edit/1/2',
    '/page/12',
    '/p/abc',
    '/catalog/5',
    '/a/b/c',
    '/en/a/b/c',
    '/%E0%A4%A',
  ])
    expect([path, readerAddress(path, '')]).toEqual([path, null]);
});
