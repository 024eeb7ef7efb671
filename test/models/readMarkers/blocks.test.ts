/**
 * The block comparison behind "show changes": blocks are what a reader sees as one unit, found by
 * the parser the reader renders with, and each changed block is named by its first source line.
 */
import { describe, expect, test } from '@jest/globals';
import { changedBlocks, splitBlocks } from '../../../models/readMarkers/blocks';

describe('splitting Markdown into blocks', () => {
  test('headings, paragraphs, list items, table rows, code and rules are blocks', async () => {
    const source = [
      '# Title',
      '',
      '- one',
      '- two',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '```js',
      'code()',
      '```',
      '',
      '---',
    ].join('\n');
    expect((await splitBlocks(source)).map((b) => [b.line, b.text])).toEqual([
      [0, '# Title'],
      [2, '- one'],
      [3, '- two'],
      [5, '| a | b |'],
      [7, '| 1 | 2 |'],
      [9, '```js\ncode()\n```'],
      [13, '---'],
    ]);
  });
});

describe('comparing two versions', () => {
  test('an edited paragraph is changed, a new one added, and moved-around text is matched', async () => {
    const before = 'Intro\n\nKept\n\nOld wording\n\nTail';
    const after = 'Intro\n\nKept\n\nNew wording\n\nTail\n\nAppendix';
    expect(await changedBlocks(before, after)).toEqual({
      blocks: [
        { line: 4, kind: 'changed' },
        { line: 8, kind: 'added' },
      ],
      removed: 0,
    });
  });

  test('a removed block is counted, nothing highlighted for it', async () => {
    expect(await changedBlocks('A\n\nB\n\nC', 'A\n\nC')).toEqual({ blocks: [], removed: 1 });
  });

  test('a changed table row is the row, not the whole table', async () => {
    const table = (x: string) => `| a | b |\n|---|---|\n| 1 | 2 |\n| ${x} | 4 |`;
    expect((await changedBlocks(table('3'), table('9'))).blocks).toEqual([
      { line: 3, kind: 'changed' },
    ]);
  });

  test('against an empty version everything is added', async () => {
    expect((await changedBlocks('', '# T\n\nText')).blocks).toEqual([
      { line: 0, kind: 'added' },
      { line: 2, kind: 'added' },
    ]);
  });

  test('identical versions have no changes', async () => {
    expect(await changedBlocks('Same\n\ntext', 'Same\n\ntext')).toEqual({ blocks: [], removed: 0 });
  });
});
