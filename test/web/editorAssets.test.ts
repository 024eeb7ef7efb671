/** The Markdown the editor's asset tools insert (web/features/editor/assets/markdown.ts). */
import { describe, expect, test } from '@jest/globals';
import { attachmentMarkdown, templateBlock } from '../../web/features/editor/assets/markdown';

const URL = 'http://docs.example/server/?s=/api/attachment/visitFile&sign=0123abcd';

describe('attachmentMarkdown', () => {
  test('an image becomes a picture, anything else a link', () => {
    expect(attachmentMarkdown({ display_name: 'a.png', url: URL, file_type: 'image/png' })).toBe(
      `![a.png](${URL})`,
    );
    expect(
      attachmentMarkdown({ display_name: 'spec.pdf', url: URL, file_type: 'application/pdf' }),
    ).toBe(`[spec.pdf](${URL})`);
    expect(attachmentMarkdown({ display_name: 'x', url: URL })).toBe(`[x](${URL})`);
  });

  test('brackets in the name and spaces or parentheses in the URL cannot end the link early', () => {
    expect(
      attachmentMarkdown({
        display_name: 'plan [v2]\\.png',
        url: 'http://h/a b(1).png',
        file_type: 'image/png',
      }),
    ).toBe('![plan \\[v2\\]\\\\.png](http://h/a%20b%281%29.png)');
  });
});

describe('templateBlock', () => {
  test('ends the template with exactly one blank line', () => {
    expect(templateBlock('- a\n- b\n')).toBe('- a\n- b\n\n');
    expect(templateBlock('|x|\n\n\n  ')).toBe('|x|\n\n');
  });
});
