/**
 * The pure parts of ranked search: a query read as words and "phrases", fenced code told apart
 * from prose, the snippet around the best match with its highlight ranges, and its HTML form
 * (escaped, only <mark> added).
 */
import { describe, expect, test } from '@jest/globals';
import { matchesAll, parseQuery } from '../../../models/search/query';
import { makeSnippet, markSnippet, splitCode } from '../../../models/search/snippet';

describe('parseQuery', () => {
  test('bare words and quoted phrases are parts; the bare words form the boosted phrase', () => {
    const query = parseQuery('quokka "the habitat" Island quokka');
    expect(query.parts).toEqual(['quokka', 'the habitat', 'Island']);
    expect(query.phrase).toBe('quokka Island quokka');
  });

  test('each part matches literally, case-insensitively, inside words; a phrase across blanks', () => {
    const query = parseQuery('NDPOI "a.b  c" f(x');
    expect(matchesAll(query, ['the endpoint', 'A.B\nc and f(x)'])).toBe(true);
    expect(matchesAll(query, ['the endpoint', 'axb c and f(x)'])).toBe(false);
    expect(matchesAll(query, ['the endpoint', 'a.b c'])).toBe(false);
  });

  test('a stray quote is not part of the word; an empty phrase is nothing', () => {
    expect(parseQuery('"quokka').parts).toEqual(['quokka']);
    expect(parseQuery('"" wombat').parts).toEqual(['wombat']);
  });
});

describe('splitCode', () => {
  test('fenced blocks (backticks or tildes, closed by a fence as long) are code; the rest prose', () => {
    const { prose, code } = splitCode(
      'intro\n```js\nconst a = 1;\n``\nstill code\n```\nmiddle\n~~~~\ntilde code\n~~~~\nend',
    );
    expect(prose.split('\n').filter(Boolean)).toEqual(['intro', 'middle', 'end']);
    expect(code.split('\n')).toEqual(['const a = 1;', '``', 'still code', 'tilde code']);
  });

  test('an unclosed fence runs to the end; text without fences is all prose', () => {
    expect(splitCode('a\n```\nb\nc').code).toBe('b\nc');
    expect(splitCode('plain `inline` text')).toEqual({ prose: 'plain `inline` text', code: '' });
  });
});

describe('snippets', () => {
  test('the window holding most parts wins over the first hit; ranges mark each match', () => {
    const text = `cat first. ${'x '.repeat(200)}the cat sat on the mat. ${'y '.repeat(100)}`;
    const snippet = makeSnippet(parseQuery('cat mat'), text);
    expect(snippet.text).toContain('the cat sat on the mat.');
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.highlights.map(([a, b]) => snippet.text.slice(a, b))).toEqual(['cat', 'mat']);
  });

  test('nothing matched: the start of the text, no ranges', () => {
    expect(makeSnippet(parseQuery('zebra'), 'short text')).toEqual({
      text: 'short text',
      highlights: [],
    });
  });

  test('markSnippet escapes the text and wraps only the matches in <mark>', () => {
    const snippet = makeSnippet(parseQuery('alert'), '<img src=x onerror="alert(1)">');
    expect(markSnippet(snippet)).toBe(
      '&lt;img src=x onerror=&quot;<mark>alert</mark>(1)&quot;&gt;',
    );
  });
});
