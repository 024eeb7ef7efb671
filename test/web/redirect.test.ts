/**
 * The login redirect rule (spec 000 §5): only letters, digits and / : ? . _ * + -, no dot, no
 * double slash, and (Quire) a path of this app. And the redirect the 10102 rule builds.
 */
import { expect, test } from '@jest/globals';
import { currentPathAsRedirect, isSafeRedirect } from '../../web/auth/redirect';

test('paths of the app pass the redirect rule', () => {
  for (const ok of ['/item/index', '/team/index', '/123/456', '/user/setting', '/a_b-c+d*e:f?g'])
    expect([ok, isSafeRedirect(ok)]).toEqual([ok, true]);
});

test('other sites, dots, double slashes and foreign characters are illegal redirects', () => {
  for (const bad of [
    '//evil.example',
    'https://evil.example/',
    'https:/evil',
    '/item/../admin',
    '/x.html',
    '/a//b',
    'item/index',
    'javascript:alert(1)',
    '/a b',
    '/a=b',
    '/a&b',
    '/中文',
    '',
  ])
    expect([bad, isSafeRedirect(bad)]).toEqual([bad, false]);
});

test('the 10102 redirect keeps the query when it passes the rule, else only the path', () => {
  expect(currentPathAsRedirect('/team/index', '')).toBe('/team/index');
  expect(currentPathAsRedirect('/item/index', '?x')).toBe('/item/index?x');
  // "=" is not allowed: the query is dropped rather than the whole redirect.
  expect(currentPathAsRedirect('/message/index', '?dtab=remindList')).toBe('/message/index');
  expect(currentPathAsRedirect('/a.b', '')).toBe('/item/index');
});
