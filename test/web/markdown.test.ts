/**
 * The content renderer (web/markdown): Markdown features, the table of contents, on-demand math
 * and highlighting, ShowDoc's API-document pages, and — above all — that whatever an author
 * writes comes out inert. The renderer imports no DOM; the sanitiser is given jsdom's window here
 * as the browser gives it its own.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { JSDOM } from 'jsdom';
import {
  apiDocToMarkdown,
  pageMarkdown,
  parseApiDoc,
  renderDocument,
  renderMarkdown,
  setSanitizerWindow,
  unescapeHtml,
} from '../../web/markdown';
import { registerHighlighter, registerMathRenderer } from '../../web/markdown/features';
import { installHighlighter } from '../../web/markdown/highlighter';
import { featuresReady } from '../../web/markdown/loadFeatures';
import { installKatex } from '../../web/markdown/katexRenderer';

let dom: JSDOM;

beforeAll(() => {
  dom = new JSDOM('<!doctype html><html><body></body></html>');
  setSanitizerWindow(dom.window);
});

/** The value as a browser reads a URL scheme: blanks and control characters ignored. */
const withoutBlanks = (value: string) =>
  [...value].filter((ch) => ch.charCodeAt(0) > 0x20).join('');

/** Parses rendered HTML into a detached element to inspect it. */
function parse(html: string): HTMLElement {
  const holder = dom.window.document.createElement('div');
  holder.innerHTML = html;
  return holder;
}

describe('un-escaping page content', () => {
  test('reverses the API escaping exactly once', () => {
    expect(unescapeHtml('&lt;b&gt; &quot;q&quot; &#039;s&#039; &#39;t&#39; a &amp; b')).toBe(
      `<b> "q" 's' 't' a & b`,
    );
    // An author who typed "&lt;" literally gets it back as typed, not as "<".
    expect(unescapeHtml('&amp;lt;')).toBe('&lt;');
    expect(unescapeHtml('&nbsp; &copy;')).toBe('&nbsp; &copy;');
  });
});

describe('Markdown features', () => {
  test('GFM tables are wrapped to scroll, task lists have disabled boxes', () => {
    const root = parse(
      renderMarkdown(
        '|a|b|\n|-|-|\n|1|2|\n\n- [x] done\n- [ ] open\n\n~~old~~ https://example.com',
      ),
    );
    expect(root.querySelector('.md-table-wrap > table td')?.textContent).toBe('1');
    const boxes = Array.from(root.querySelectorAll('li.task-list-item input'));
    expect(boxes).toHaveLength(2);
    expect(boxes.map((b) => [b.getAttribute('type'), b.hasAttribute('disabled')])).toEqual([
      ['checkbox', true],
      ['checkbox', true],
    ]);
    expect((boxes[0] as HTMLInputElement).checked).toBe(true);
    expect(root.querySelector('s')?.textContent).toBe('old');
    expect(root.querySelector('a[href="https://example.com"]')).not.toBeNull();
  });

  test('keeps single line breaks inside a paragraph (as ShowDoc rendered them)', () => {
    expect(renderMarkdown('one\ntwo')).toContain('<br>');
  });

  test('headings get unique anchors (also in Chinese) and make the table of contents', () => {
    const doc = renderDocument('# Intro\n\n## 安装 步骤\n\n## Intro\n\n### `code` part');
    expect(doc.toc).toEqual([
      { level: 1, id: 'intro', text: 'Intro' },
      { level: 2, id: '安装-步骤', text: '安装 步骤' },
      { level: 2, id: 'intro-1', text: 'Intro' },
      { level: 3, id: 'code-part', text: 'code part' },
    ]);
    const root = parse(doc.html);
    expect(Array.from(root.querySelectorAll('h1,h2,h3')).map((h) => h.id)).toEqual(
      doc.toc.map((e) => e.id),
    );
  });

  test('a heading named like a document property keeps an anchor (suffixed, not dropped)', () => {
    const doc = renderDocument('# Title\n\n## Images\n\n[TOC]');
    const root = parse(doc.html);
    expect(root.querySelector('h1')?.id).toBe('title-section');
    expect(root.querySelector('h2')?.id).toBe('images-section');
    expect(doc.toc.map((e) => e.id)).toEqual(['title-section', 'images-section']);
    // the [TOC] marker links to the same anchors
    expect(
      Array.from(root.querySelectorAll('nav.md-toc a')).map((a) => a.getAttribute('href')),
    ).toEqual(['#title-section', '#images-section']);
  });

  test('code fences highlight once their grammars are loaded, unknown languages stay plain', async () => {
    registerHighlighter(null);
    const source = '```js\nconst a = 1;\n```\n\n```nolang\n<b>x</b>\n```\n\n```JS\nlet b;\n```';
    const plain = renderDocument(source);
    expect(plain.needs.highlight).toEqual(['js', 'nolang']);
    expect(plain.html).not.toContain('hljs-');
    expect(featuresReady(plain.needs)).toBe(false);
    await installHighlighter(plain.needs.highlight);
    try {
      expect(featuresReady(plain.needs)).toBe(true);
      const root = parse(renderDocument(source).html);
      expect(root.querySelector('code.language-js .hljs-keyword')?.textContent).toBe('const');
      expect(root.querySelector('code.language-nolang')?.textContent).toBe('<b>x</b>\n');
    } finally {
      registerHighlighter(null);
    }
  });

  test('a fence loads only the grammars it needs: aliases resolve, HTML brings its script grammar', async () => {
    registerHighlighter(null);
    const html = renderDocument('```html\n<script>var x = 1;</script>\n```');
    expect(html.needs.highlight).toEqual(['html']);
    await installHighlighter(html.needs.highlight);
    try {
      const root = parse(renderDocument('```html\n<script>var x = 1;</script>\n```').html);
      expect(root.querySelector('code.language-html .hljs-tag')).not.toBeNull();
      // the script's body is highlighted by the JavaScript grammar HTML embeds
      expect(root.querySelector('code.language-html .hljs-keyword')?.textContent).toBe('var');
      // a language no fence named is still to load: the document is not ready until it is
      expect(featuresReady(renderDocument('```rust\nfn main() {}\n```').needs)).toBe(false);
    } finally {
      registerHighlighter(null);
    }
  });

  test('math: placeholders until KaTeX is registered, then KaTeX; prices stay text', () => {
    registerMathRenderer(null);
    const source =
      'Costs $5 and $10.\n\nInline $x^2$ and $$y$$.\n\n$$\n\\frac{a}{b}\n$$\n\n```math\nz\n```';
    const pending = renderDocument(source);
    expect(pending.needs.math).toBe(true);
    const root = parse(pending.html);
    expect(root.querySelector('p')?.textContent).toBe('Costs $5 and $10.');
    expect(
      Array.from(root.querySelectorAll('.md-math-pending')).map((e) => e.textContent?.trim()),
    ).toEqual(['x^2', 'y', '\\frac{a}{b}', 'z']);
    installKatex();
    try {
      const rendered = parse(renderDocument(source).html);
      expect(rendered.querySelectorAll('.md-math .katex')).toHaveLength(4);
      expect(rendered.querySelectorAll('.md-math-display .katex-display')).toHaveLength(2);
      expect(rendered.querySelector('.md-math-pending')).toBeNull();
    } finally {
      registerMathRenderer(null);
    }
  });

  test('KaTeX does not follow links in TeX (trust off)', () => {
    installKatex();
    try {
      const root = parse(renderMarkdown('$\\href{javascript:alert(1)}{x}$'));
      expect(root.querySelector('.katex')).not.toBeNull();
      expect(root.querySelector('a')).toBeNull();
      expect(root.querySelector('[href]')).toBeNull();
    } finally {
      registerMathRenderer(null);
    }
  });

  test('a mermaid fence becomes a diagram placeholder holding its escaped source', () => {
    const doc = renderDocument('```mermaid\ngraph TD; A-->B<script>\n```');
    expect(doc.needs).toEqual({ math: false, highlight: [], mermaid: true });
    const block = parse(doc.html).querySelector('.md-mermaid .md-mermaid-source');
    expect(block?.textContent).toBe('graph TD; A-->B<script>\n');
    expect(parse(doc.html).querySelector('script')).toBeNull();
  });

  test('links leaving the site open in a new tab without an opener; page links do not', () => {
    const root = parse(
      renderMarkdown(
        '[out](https://example.com) [in](/item/1) [anchor](#x) <a href="/p" target="_top">t</a>',
      ),
    );
    const out = root.querySelector('a[href="https://example.com"]')!;
    expect(out.getAttribute('target')).toBe('_blank');
    expect(out.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(root.querySelector('a[href="/item/1"]')?.hasAttribute('target')).toBe(false);
    expect(root.querySelector('a[href="#x"]')?.hasAttribute('target')).toBe(false);
    expect(root.querySelector('a[href="/p"]')?.hasAttribute('target')).toBe(false);
  });
});

describe('stored XSS renders inert', () => {
  const payloads = [
    '<script>window.__xss = 1</script>',
    '<img src="x" onerror="window.__xss = 1">',
    '<IMG SRC=x OnError=window.__xss=1>',
    '[click](javascript:window.__xss=1)',
    '<a href="javascript:window.__xss=1">click</a>',
    '<a href="  JaVaScRiPt:window.__xss=1">click</a>',
    '<a href="java&#x09;script:window.__xss=1">tab</a>',
    '<a href="vbscript:msgbox(1)">vb</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
    '<svg onload="window.__xss=1"><circle r="3"/></svg>',
    '<svg><script>window.__xss=1</script></svg>',
    '<svg><a xlink:href="javascript:window.__xss=1"><text y="10">x</text></a></svg>',
    '<svg><animate onbegin="window.__xss=1" attributeName="x" dur="1s"/></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1></style></mglyph></table></mtext></math>',
    '<iframe src="javascript:window.__xss=1"></iframe>',
    '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
    '<object data="javascript:window.__xss=1"></object>',
    '<embed src="javascript:window.__xss=1">',
    '<form action="javascript:window.__xss=1"><button>go</button></form>',
    '<details open ontoggle="window.__xss=1">x</details>',
    '<div style="background:url(javascript:window.__xss=1)">bg</div>',
    '<style>body{display:none}</style>',
    '<div style="position:fixed;inset:0;z-index:9999">overlay</div>',
    '<base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
    '<input type="password" name="pw" onfocus="window.__xss=1" autofocus>',
    '<p title="&quot;&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;">quoted</p>',
    '![img](javascript:window.__xss=1)',
    '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
  ];

  const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'srcdoc'];
  const BANNED = [
    'script',
    'iframe',
    'object',
    'embed',
    'form',
    'style',
    'base',
    'meta',
    'noscript',
  ];

  test.each(payloads)('%s', (payload) => {
    const html = renderMarkdown(`before\n\n${payload}\n\nafter`);
    const root = parse(html);
    for (const element of Array.from(root.querySelectorAll('*'))) {
      expect(BANNED).not.toContain(element.tagName.toLowerCase());
      for (const attr of Array.from(element.attributes)) {
        expect(attr.name.toLowerCase().startsWith('on') ? attr.name : 'ok').toBe('ok');
        if (URL_ATTRS.includes(attr.name.toLowerCase()))
          expect(withoutBlanks(attr.value)).not.toMatch(/^(javascript|vbscript|data:text\/html)/i);
        if (attr.name === 'style') expect(attr.value).not.toMatch(/javascript:|position:\s*fixed/i);
      }
      if (element.tagName.toLowerCase() === 'input') {
        expect(element.getAttribute('type')).toBe('checkbox');
        expect(element.hasAttribute('disabled')).toBe(true);
      }
    }
    expect(root.textContent).toContain('after');
  });

  test('the sanitised HTML, when executed by a DOM with scripts on, runs nothing', () => {
    const html = renderMarkdown(payloads.join('\n\n'));
    const page = new JSDOM(`<!doctype html><body>${html}</body>`, { runScripts: 'dangerously' });
    const win = page.window as unknown as { __xss?: number };
    expect(win.__xss).toBeUndefined();
    page.window.close();
  });
});

describe('API-document pages (RunApi JSON)', () => {
  const doc = {
    info: {
      from: 'runapi',
      type: 'api',
      title: 'Login',
      description: 'Logs a user in',
      method: 'post',
      url: '{{host}}/api/user/login',
      remark: 'Rate limited',
      apiStatus: '3',
    },
    request: {
      params: {
        mode: 'formdata',
        formdata: [
          { name: 'username', value: 'alice', type: 'string', require: '1', remark: 'Login name' },
          { name: 'password', value: 'x', type: 'string', require: '1', remark: '' },
          { name: 'old', value: '', type: 'string', require: '0', remark: '', disable: '1' },
        ],
      },
      headers: [
        { name: 'X-Trace', value: 'abc', type: 'string', require: '0', remark: 'pipe|inside' },
      ],
      query: [],
      pathVariable: [],
    },
    response: {
      responseExample: '{"error_code":0,"data":{"uid":1}}',
      responseParamsDesc: [{ name: 'uid', type: 'int', remark: 'User id' }],
      responseFailExample: '',
      responseFailParamsDesc: [],
    },
  };

  test('is recognised only when the JSON has an info.url', () => {
    expect(parseApiDoc(JSON.stringify(doc))).not.toBeNull();
    expect(parseApiDoc('{"info":{"title":"no url"}}')).toBeNull();
    expect(parseApiDoc('{not json')).toBeNull();
    expect(pageMarkdown('# plain')).toBe('# plain');
  });

  test('renders the sections in ShowDoc order, skipping disabled and empty parts', () => {
    const md = apiDocToMarkdown(parseApiDoc(JSON.stringify(doc))!);
    const headings = md.match(/^##### .+$/gm);
    expect(headings).toEqual([
      '##### Description',
      '##### Status',
      '##### Request URL',
      '##### Method',
      '##### Headers',
      '##### Body parameters',
      '##### Success response example',
      '##### Success response fields',
      '##### Remark',
    ]);
    expect(md).toContain('Completed');
    expect(md).toContain('`{{host}}/api/user/login`');
    expect(md).toContain('|username|yes|string|Login name|');
    expect(md).toContain('|password|yes|string|none|');
    expect(md).not.toContain('old');
    expect(md).toContain('pipe\\|inside');
    expect(md).toContain('"error_code": 0');
    const root = parse(renderMarkdown(md));
    expect(root.querySelectorAll('table')).toHaveLength(3);
  });

  test('GET: body parameters are the query when no query list exists; else the URL loses its query', () => {
    const get = { ...doc, info: { ...doc.info, method: 'get', url: '/api/x?a=1' } };
    const asQuery = apiDocToMarkdown(parseApiDoc(JSON.stringify(get))!);
    expect(asQuery).toContain('##### Query parameters');
    expect(asQuery).not.toContain('##### Body parameters');
    expect(asQuery).toContain('`/api/x?a=1`');
    const withQuery = {
      ...get,
      request: { ...get.request, query: [{ name: 'q', value: '1', type: 'string', require: '1' }] },
    };
    const cut = apiDocToMarkdown(parseApiDoc(JSON.stringify(withQuery))!);
    expect(cut).toContain('`/api/x`');
    expect(cut).toContain('|q|yes|string|none|');
  });
});
