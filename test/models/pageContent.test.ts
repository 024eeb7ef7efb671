/**
 * Page text on the wire: PHP urldecode semantics for `is_urlencode=1`, ShowDoc's escaping on the
 * way out, and the client's single un-escape restoring the original.
 */
import { describe, expect, test } from '@jest/globals';
import { escapeForClient, phpUrlDecode, unescapeFromClient } from '../../models/pages/pageContent';

describe('phpUrlDecode', () => {
  test('decodes what encodeURIComponent produced, including astral characters', () => {
    const text = `a&b <c> "d" 'e' 100% + 中文 😀 \n\t`;
    expect(phpUrlDecode(encodeURIComponent(text))).toBe(text);
  });

  test('like PHP: + is a space, malformed % sequences stay, invalid UTF-8 does not throw', () => {
    expect(phpUrlDecode('a+b')).toBe('a b');
    expect(phpUrlDecode('100%')).toBe('100%');
    expect(phpUrlDecode('%zz%4')).toBe('%zz%4');
    expect(phpUrlDecode('%E4%B8')).toBe('\uFFFD');
    expect(phpUrlDecode('plain')).toBe('plain');
  });

  test('literal characters beside encoded ones read the same whichever way they are decoded', () => {
    expect(phpUrlDecode('中文%20x+%E4%B8%AD')).toBe('中文 x 中');
    expect(phpUrlDecode('中文%20x+%E4%B8%AD😀')).toBe('中文 x 中😀');
    expect(phpUrlDecode('a%20\uD800')).toBe('a \uFFFD');
    expect(phpUrlDecode('50%+off%21')).toBe('50% off!');
  });
});

describe('escaping', () => {
  test('escapes & < > " \' (entities again), or without quotes', () => {
    expect(escapeForClient(`<a href="x">'&amp;'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#039;&amp;amp;&#039;&lt;/a&gt;',
    );
    expect(escapeForClient(`"q" <b>`, { quotes: false })).toBe('"q" &lt;b&gt;');
  });

  test('un-escaping once restores any text, whichever way it was escaped', () => {
    const text = `<script>alert("&amp;")</script> it's &#039; &lt;`;
    expect(unescapeFromClient(escapeForClient(text))).toBe(text);
    expect(unescapeFromClient(escapeForClient(text, { quotes: false }))).toBe(text);
  });
});
