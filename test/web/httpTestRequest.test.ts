/**
 * The HTTP test tool's request (web/features/editor/assets/httpTestRequest.ts): read from a
 * RunApi API page or ShowDoc's Markdown API template, sent with the item's global parameters
 * where the request does not set them, and the rule that a POST a browser would send without a
 * CORS preflight goes only through the relay (so it never runs twice).
 */
import { describe, expect, test } from '@jest/globals';
import {
  emptyRequest,
  formatBody,
  relayOnly,
  requestFromPage,
  toSendable,
} from '../../web/features/editor/assets/httpTestRequest';

const RUNAPI_PAGE = JSON.stringify({
  info: { url: 'https://api.example.com/users/{id}?v=1', method: 'post', title: 'Update user' },
  request: {
    headers: [
      { name: 'X-App', value: 'docs', disable: '0' },
      { name: 'X-Off', value: 'no', disable: '1' },
    ],
    query: [{ name: 'lang', value: 'zh' }],
    pathVariable: [{ name: 'id', value: '42' }],
    params: {
      mode: 'urlencoded',
      urlencoded: [{ name: 'name', value: 'Ann' }, { name: '' }],
      formdata: [],
      json: '',
    },
  },
});

const MARKDOWN_PAGE = `##### 简要描述

- 用户注册接口

##### 请求URL

- \` http://xx.com/api/user/register \`

##### 请求方式

- POST

##### 参数

|参数名|必选|类型|说明|
|:----    |:---|:----- |-----   |
|username |是  |string |用户名   |
|password |是  |string | 密码    |
`;

describe('requestFromPage', () => {
  test('a RunApi page: method, path variables, query (from the URL too), headers, form body', () => {
    const request = requestFromPage(RUNAPI_PAGE);
    expect(request).toMatchObject({
      method: 'POST',
      url: 'https://api.example.com/users/42',
      bodyMode: 'form',
    });
    expect(request.query).toEqual([
      { name: 'v', value: '1', enabled: true },
      { name: 'lang', value: 'zh', enabled: true },
    ]);
    expect(request.headers).toEqual([
      { name: 'X-App', value: 'docs', enabled: true },
      { name: 'X-Off', value: 'no', enabled: false },
    ]);
    expect(request.bodyFields).toEqual([{ name: 'name', value: 'Ann', enabled: true }]);
  });

  test("ShowDoc's Markdown API template: URL, method and the parameter names", () => {
    const request = requestFromPage(MARKDOWN_PAGE);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://xx.com/api/user/register');
    expect(request.bodyFields.map((row) => row.name)).toEqual(['username', 'password']);
    expect(request.query).toEqual([]);
  });

  test('a page that documents no API gives an empty request', () => {
    expect(requestFromPage('# Notes\n\nNothing here')).toEqual(emptyRequest());
  });
});

describe('toSendable', () => {
  test('adds enabled rows and the global parameters the request does not set', () => {
    const request = requestFromPage(RUNAPI_PAGE);
    const sent = toSendable(request, {
      query: [
        { name: 'lang', value: 'en' },
        { name: 'token', value: 't1' },
      ],
      header: [
        { name: 'x-app', value: 'other' },
        { name: 'X-Global', value: 'g' },
      ],
      body: [{ name: 'team', value: '7' }],
    });
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('https://api.example.com/users/42?v=1&lang=zh&token=t1');
    expect(sent.headers).toEqual([
      ['X-App', 'docs'],
      ['X-Global', 'g'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ]);
    expect(sent.body).toBe('name=Ann&team=7');
  });

  test('a JSON body gets its content type; GET sends no body; a bad URL is refused', () => {
    const json = toSendable(
      {
        ...emptyRequest(),
        method: 'PUT',
        url: 'http://h/x',
        bodyMode: 'json',
        bodyText: '{"a":1}',
      },
      null,
    );
    expect(json.headers).toEqual([['Content-Type', 'application/json']]);
    expect(json.body).toBe('{"a":1}');
    const get = toSendable(
      { ...emptyRequest(), url: 'http://h/x', bodyMode: 'text', bodyText: 'ignored' },
      null,
    );
    expect(get.body).toBe('');
    expect(() => toSendable({ ...emptyRequest(), url: 'ftp://h/' }, null)).toThrow('url');
    expect(() => toSendable({ ...emptyRequest(), url: 'xx.com' }, null)).toThrow('url');
  });
});

test('relayOnly: a POST without a preflight goes only through the relay', () => {
  const form = { method: 'POST', url: 'http://h/', body: 'a=1' };
  expect(
    relayOnly({ ...form, headers: [['Content-Type', 'application/x-www-form-urlencoded']] }),
  ).toBe(true);
  expect(relayOnly({ ...form, headers: [['Content-Type', 'application/json']] })).toBe(false);
  expect(relayOnly({ ...form, headers: [['X-Token', 'a']] })).toBe(false);
  expect(relayOnly({ ...form, method: 'GET', headers: [] })).toBe(false);
});

test('formatBody pretty-prints JSON and leaves other text alone', () => {
  expect(formatBody('{"a":[1,2]}')).toEqual({
    text: '{\n  "a": [\n    1,\n    2\n  ]\n}',
    json: true,
  });
  expect(formatBody('<html>')).toEqual({ text: '<html>', json: false });
});
