/**
 * Attachment text extraction in its child process: the text of a PDF, a DOCX, an XLSX and plain
 * text, and the bounds that keep a hostile file from costing the server — a file that never ends
 * is killed at the time limit, an oversized archive part is not inflated, garbage is an error.
 */
import { describe, expect, test } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { zipSync } from 'fflate';
import { extractKindOf, extractText } from '../../../models/files/attachmentText';
import { makeDocx, makePdf, makeXlsx } from '../../helpers/documents';

describe('extractText', () => {
  test('PDF, DOCX, XLSX and UTF-8 text give their words', async () => {
    expect(await extractText('pdf', makePdf(['the habitat of the quokka']))).toContain(
      'the habitat of the quokka',
    );
    expect(await extractText('docx', await makeDocx(['Wombats & burrows', 'deep']))).toBe(
      'Wombats & burrows\ndeep\n',
    );
    expect(
      await extractText(
        'xlsx',
        await makeXlsx([
          ['Species', 'Count'],
          ['dunnart', 17],
        ]),
      ),
    ).toBe('Species\tCount\ndunnart\t17');
    expect(await extractText('text', Buffer.from('数据库 notes'))).toBe('数据库 notes');
  }, 60_000);

  test('the text is cut at maxChars', async () => {
    expect(await extractText('text', Buffer.from('abcdefgh'), { maxChars: 3 })).toBe('abc');
  });

  test('a file that never ends is killed at the time limit', async () => {
    const endless = new PassThrough();
    endless.write('still coming');
    const started = Date.now();
    await expect(extractText('text', endless, { timeoutMs: 1500 })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(10_000);
    endless.destroy();
  });

  test('an archive part inflating past the bound is skipped; a broken PDF is an error', async () => {
    const bomb = zipSync(
      { 'word/document.xml': new Uint8Array(40 * 1024 * 1024).fill(0x61) },
      { level: 9 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await extractText('docx', Buffer.from(bomb))).toBe('');
    await expect(extractText('pdf', Buffer.from('%PDF-1.4 not really'))).rejects.toThrow();
  }, 60_000);
});

describe('extractKindOf', () => {
  test('by the file name: pdf, docx, xlsx, markdown and text; nothing else', () => {
    expect(
      ['a.PDF', 'b.docx', 'c.xlsx', 'd.md', 'e.markdown', 'f.txt', 'g.csv'].map(extractKindOf),
    ).toEqual(['pdf', 'docx', 'xlsx', 'text', 'text', 'text', 'text']);
    expect(['a.zip', 'b.doc', 'noext', 'x.png'].map(extractKindOf)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
