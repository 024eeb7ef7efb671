/**
 * The answer stream's page markers (`[[page:ID|Title]]`): a marker for a page the tools showed
 * becomes a ref with Quire's title and a Markdown link in the stored answer, wherever the stream
 * splits it; a marker for any other page disappears; text that only looks like a marker's start
 * comes through unchanged.
 */
import { describe, expect, test } from '@jest/globals';
import { type PageRef, ReferenceFilter } from '../../../models/agent/references';

function run(pieces: string[]) {
  const known = new Map([[12, { title: 'Install guide', item_id: 3 }]]);
  const out: (string | PageRef)[] = [];
  const filter = new ReferenceFilter((id) => known.get(id), {
    text: (piece) => out.push(piece),
    ref: (ref) => out.push(ref),
  });
  for (const piece of pieces) filter.push(piece);
  filter.flush();
  return {
    text: out.filter((e) => typeof e === 'string').join(''),
    refs: filter.refs,
    stored: filter.stored,
  };
}

describe('ReferenceFilter', () => {
  test('a known page, its marker split over chunks: one ref, the known title, a link stored', () => {
    const { text, refs, stored } = run(['See [', '[pa', 'ge:12|the model’s tit', 'le]] now.']);
    expect(text).toBe('See  now.');
    expect(refs).toEqual([{ page_id: 12, page_title: 'Install guide', item_id: 3 }]);
    expect(stored).toBe('See [Install guide](/3/12) now.');
  });

  test('a page the tools never showed: the marker is dropped, title and all', () => {
    const { text, refs, stored } = run(['Secret: [[page:99|Payroll]] end']);
    expect(text).toBe('Secret:  end');
    expect(refs).toEqual([]);
    expect(stored).not.toContain('Payroll');
  });

  test('brackets that are no marker pass through, also at the very end', () => {
    expect(run(['an array [1, 2] and [[not a marker]] and [', '[pag']).text).toBe(
      'an array [1, 2] and [[not a marker]] and [[pag',
    );
  });
});
