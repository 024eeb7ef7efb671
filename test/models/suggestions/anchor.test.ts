/**
 * Where suggestions sit (models/suggestions/anchor.ts, fromDiff.ts): a suggestion is found again
 * by its context after edits elsewhere, the nearest match wins, a suggestion whose text is gone is
 * not found; an agent's new text becomes hunks that, all applied, give exactly that text.
 */
import { describe, expect, test } from '@jest/globals';
import { anchorAt, locateAnchor, suggestionsFromDiff } from '../../../models/suggestions';

function applyAll(text: string, changes: ReturnType<typeof suggestionsFromDiff>): string {
  let out = text;
  for (const c of [...changes].sort((a, b) => b.from - a.from)) {
    const at = locateAnchor(out, c);
    expect(at).toBeGreaterThanOrEqual(0);
    out = out.slice(0, at) + c.new_text + out.slice(at + c.old_text.length);
  }
  return out;
}

describe('locateAnchor', () => {
  const text = 'one two three\nfour five six\nseven eight nine';

  test('finds the anchored text after edits before it', () => {
    const anchor = anchorAt(text, text.indexOf('five'), text.indexOf('five') + 4);
    const edited = `A new first line.\n${text.replace('two', 'TWO!')}`;
    expect(locateAnchor(edited, anchor)).toBe(edited.indexOf('five'));
  });

  test('an insertion (no old text) keeps its place between its neighbours', () => {
    const at = text.indexOf(' eight');
    const anchor = anchorAt(text, at, at);
    expect(anchor.old_text).toBe('');
    expect(locateAnchor(`xx${text}`, anchor)).toBe(at + 2);
  });

  test('among repeated text the match nearest the remembered offset wins', () => {
    const repeated = 'ab ab ab ab';
    expect(locateAnchor(repeated, { from: 6, old_text: 'ab', before: '', after: '' })).toBe(6);
    expect(locateAnchor(repeated, { from: 8, old_text: 'ab', before: '', after: '' })).toBe(9);
  });

  test('text that is gone is not found', () => {
    const anchor = anchorAt(text, text.indexOf('five'), text.indexOf('five') + 4);
    expect(locateAnchor(text.replace('five', '5'), anchor)).toBe(-1);
  });
});

describe('suggestionsFromDiff', () => {
  const cases: Array<[string, string]> = [
    ['The quick brown fox.', 'The slow brown fox!'],
    ['# Title\n\nLine one.\nLine two.\n', '# Title\n\nLine one, edited.\nLine three.\n'],
    ['abc', ''],
    ['', 'fresh text'],
    ['keep this and drop that', 'keep this'],
  ];

  test.each(cases)('the hunks of %j → %j give exactly the new text', (from, to) => {
    const changes = suggestionsFromDiff(from, to);
    expect(changes.length).toBeGreaterThan(0);
    expect(applyAll(from, changes)).toBe(to);
  });

  test('nearby changes join into one suggestion', () => {
    const changes = suggestionsFromDiff('the cat sat down', 'the cut sit down');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ old_text: 'at sa', new_text: 'ut si' });
  });

  test('no difference, no suggestion', () => {
    expect(suggestionsFromDiff('same', 'same')).toEqual([]);
  });
});
